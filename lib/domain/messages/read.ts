import { and, eq } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { currentMediaOf } from "@/lib/domain/media/wire";
import { serializeMessage, type MessageRow } from "./serialize";

/** GET /messages: every message of the project, inbound and outbound, newest first. */
export async function listMessages(ctx: Ctx, page: PageParams) {
  const result = await paginate(ctx.db, messages, eq(messages.projectId, ctx.project.id), page);
  return { data: await serializeMessages(ctx, result.data), has_more: result.has_more };
}

/** GET /messages/{id}: one message of the project (another project's id is a 404). */
export async function getMessage(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.projectId, ctx.project.id), eq(messages.id, id)));
  if (!row) throw notFound("message", id);
  const [message] = await serializeMessages(ctx, [row]);
  return message!;
}

/** Message wire objects with their media's current state and a freshly signed URL (docs/spec/service-spec.md: Inbound media 5). */
async function serializeMessages(ctx: Ctx, rows: MessageRow[]) {
  const current = await currentMediaOf(ctx.db, ctx.project.id, rows, ctx.now, ctx.settings.publicUrl);
  return rows.map((row) => ({ ...serializeMessage(row), media: current.get(row.id) ?? row.media ?? null }));
}
