import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { channels, flowDispatches, flowVersionCopies, flowVersions, flows, projects } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { ProjectRow } from "@/lib/domain/context";
import { isRecord } from "@/lib/json";
import { isIdOf } from "@/lib/ids";

/** What one endpoint call reads from the database, loaded here and judged in endpoint.ts. */
export type FlowRowOf = typeof flows.$inferSelect;
export type DispatchRow = typeof flowDispatches.$inferSelect;

/** Keys tried per request: a business account has a handful of numbers, not hundreds. */
const MAX_KEYS = 10;

/**
 * What a flow_token of ours can look like (dispatch.ts newFlowToken), with room to spare. The path's
 * flow id and the decrypted token are the caller's text: one that cannot be ours (a NUL, a lone
 * surrogate, 100 KiB) is unknown without asking the database, which would refuse a NUL with an error.
 */
const FLOW_TOKEN_SHAPE = /^svcft_[0-9A-Za-z]{1,64}$/;

export async function loadFlowWithProject(db: Db, flowId: string): Promise<{ flow: FlowRowOf; project: ProjectRow } | null> {
  if (!isIdOf("flow", flowId)) return null;
  const [row] = await db
    .select({ flow: flows, project: projects })
    .from(flows)
    .innerJoin(projects, eq(projects.id, flows.projectId))
    .where(eq(flows.id, flowId));
  return row ?? null;
}

/**
 * The sealed private keys the request may be encrypted for. The provider encrypts with the key of the
 * number that sent the flow, and a flow may be sent from any number of its business account, so every
 * keyed number of that account (the project's organization's, or the shared sandbox) is a candidate,
 * and so is every number of an account the flow was copied to; the number it was published through is tried first.
 */
export async function decryptionKeysOf(db: Db, flow: FlowRowOf, organizationId: string): Promise<string[]> {
  const publishChannel = flow.publishChannelId ?? "";
  // A copy under another business account (copies.ts) is sent from that account's numbers.
  const copies = await db.selectDistinct({ account: flowVersionCopies.metaWabaId }).from(flowVersionCopies).where(eq(flowVersionCopies.flowId, flow.id));
  const accounts = [...(flow.metaWabaId ? [flow.metaWabaId] : []), ...copies.map((copy) => copy.account)];
  const sameAccount = accounts.length
    ? and(
        inArray(channels.businessAccountId, accounts),
        eq(channels.platform, "PLATFORM_A"),
        or(eq(channels.organizationId, organizationId), eq(channels.isSandbox, true)),
      )
    : undefined;
  const rows = await db
    .select({ sealed: channels.flowPrivateKeySealed })
    .from(channels)
    .where(and(isNotNull(channels.flowPrivateKeySealed), sameAccount ? or(eq(channels.id, publishChannel), sameAccount) : eq(channels.id, publishChannel)))
    .orderBy(sql`${channels.id} = ${publishChannel} desc`, asc(channels.id))
    .limit(MAX_KEYS);
  return rows.map((row) => row.sealed!);
}

export async function findDispatch(db: Db, flowToken: string): Promise<DispatchRow | null> {
  if (!FLOW_TOKEN_SHAPE.test(flowToken)) return null;
  const [row] = await db.select().from(flowDispatches).where(eq(flowDispatches.flowToken, flowToken));
  return row ?? null;
}

/** The Flow JSON of the version a dispatch was sent with (what the customer has open), or null. */
export async function flowJsonOfVersion(db: Db, flowId: string, version: number): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ flowJson: flowVersions.flowJson })
    .from(flowVersions)
    .where(and(eq(flowVersions.flowId, flowId), eq(flowVersions.version, version)));
  return row && isRecord(row.flowJson) ? row.flowJson : null;
}
