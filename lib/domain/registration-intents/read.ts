import { and, eq, gt, lte, or, type SQL } from "drizzle-orm";
import { registrationIntents } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { notFound } from "@/lib/errors";
import { serializeRegistrationIntent, type RegistrationIntentStatus } from "./serialize";

export async function getRegistrationIntent(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(registrationIntents)
    .where(and(eq(registrationIntents.projectId, ctx.project.id), eq(registrationIntents.id, id)));
  if (!row) throw notFound("registration intent", id);
  return serializeRegistrationIntent(row, ctx.now);
}

export interface RegistrationIntentFilters {
  status?: RegistrationIntentStatus | undefined;
  customer_reference?: string | undefined;
}

/** GET /registration-intents: newest first; `status` filters by the status as read (a PENDING row past expiry is EXPIRED). */
export async function listRegistrationIntents(ctx: Ctx, params: PageParams & RegistrationIntentFilters) {
  const filters: SQL[] = [];
  if (params.status) filters.push(statusFilter(params.status, ctx.now));
  if (params.customer_reference) filters.push(eq(registrationIntents.customerReference, params.customer_reference));
  const page = await paginate(
    ctx.db,
    registrationIntents,
    eq(registrationIntents.projectId, ctx.project.id),
    params,
    filters.length ? and(...filters) : undefined,
  );
  return { object: "list" as const, data: page.data.map((row) => serializeRegistrationIntent(row, ctx.now)), has_more: page.has_more };
}

function statusFilter(status: RegistrationIntentStatus, now: Date): SQL {
  const t = registrationIntents;
  if (status === "PENDING") return and(eq(t.status, "PENDING"), gt(t.expiresAt, now))!;
  if (status === "EXPIRED") return or(eq(t.status, "EXPIRED"), and(eq(t.status, "PENDING"), lte(t.expiresAt, now)))!;
  return eq(t.status, status);
}
