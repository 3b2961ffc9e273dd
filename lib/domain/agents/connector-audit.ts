import { isDeepStrictEqual } from "node:util";
import { recordAudit } from "@/lib/domain/audit/record";
import type { Ctx } from "@/lib/domain/context";
import type { ConnectorRow } from "./agent-row";

type Change = "name" | "type" | "config" | "status";

/**
 * A connector's audit entry (docs/api-decisions.md "Audit log"): an API connector carries credentials,
 * so every create, change and delete is recorded, with what happened to its secret (set, removed,
 * unchanged) and never the secret. An update that changed nothing records nothing.
 */
export async function recordConnectorChange(ctx: Ctx, before: ConnectorRow | null, after: ConnectorRow | null): Promise<void> {
  const row = (after ?? before)!;
  const target = { type: "business_agent_connector" as const, id: row.id };
  const facts = { business_agent_id: row.businessAgentId, name: row.name, type: row.type };
  if (!before) {
    await recordAudit(ctx, { action: "connector.created", target, details: { ...facts, has_secret: row.sealedSecret !== null } });
    return;
  }
  if (!after) {
    await recordAudit(ctx, { action: "connector.deleted", target, details: facts });
    return;
  }
  const changed: Change[] = [];
  if (before.name !== after.name) changed.push("name");
  if (before.type !== after.type) changed.push("type");
  if (!isDeepStrictEqual(before.config ?? null, after.config ?? null)) changed.push("config");
  if (before.status !== after.status) changed.push("status");
  // Sealing is randomized: a new sealed value is a new secret, the same sealed value the one kept.
  const secretChange = before.sealedSecret === after.sealedSecret ? "unchanged" : after.sealedSecret === null ? "removed" : "set";
  if (!changed.length && secretChange === "unchanged") return;
  await recordAudit(ctx, { action: "connector.updated", target, details: { ...facts, changed, secret_change: secretChange } });
}
