import { and, eq, inArray } from "drizzle-orm";
import { messages } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { simulatorCall } from "./simulator";

export interface InboxItem {
  id: string;
  type: string;
  text: string | null;
  status: string;
  sent_at: string;
  body: Record<string, unknown>;
}

/** The simulator's inbox of this customer on this channel, only what this project sent, oldest first. */
export async function ourInbox(ctx: Ctx, base: string, channel: ChannelRow, from: string): Promise<InboxItem[]> {
  const query = new URLSearchParams({ sender_id: channel.providerSenderId!, address: from });
  const result = (await simulatorCall(`${base}/customer/inbox?${query}`, { method: "GET" })) as { data: InboxItem[] };
  // Only what this project sent: on the shared sandbox other projects may have written to the number too.
  const ids = result.data.map((m) => m.id);
  if (!ids.length) return [];
  const rows = await ctx.db
    .select({ id: messages.platformMessageId })
    .from(messages)
    .where(and(eq(messages.projectId, ctx.project.id), inArray(messages.platformMessageId, ids)));
  const ours = new Set(rows.map((r) => r.id));
  return result.data.filter((m) => ours.has(m.id));
}
