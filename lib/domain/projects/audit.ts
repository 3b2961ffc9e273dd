import { recordAudit, type AuditCtx } from "@/lib/domain/audit/record";
import { urlWithoutSecrets } from "@/lib/domain/audit/actions";
import type { ProjectRow } from "@/lib/domain/context";

/**
 * The audited part of a project update (docs/api-decisions.md "Audit log"): where its webhooks go,
 * how they are signed, and how inbound is routed. Only a real change is an entry; a name or
 * description edit is not audited. The URLs are kept without user info, query or fragment, and a set
 * secret by the fact alone.
 */
export async function recordProjectChanges(
  ctx: AuditCtx,
  before: ProjectRow,
  after: ProjectRow,
  input: { webhook_secret?: string | null | undefined },
): Promise<void> {
  const target = { type: "project" as const, id: after.id };
  if (before.webhookUrl !== after.webhookUrl) {
    await recordAudit(ctx, {
      action: "project.webhook_url_changed",
      target,
      details: { from: urlWithoutSecrets(before.webhookUrl), to: urlWithoutSecrets(after.webhookUrl) },
    });
  }
  if (input.webhook_secret !== undefined && (input.webhook_secret !== null || before.webhookSecretSealed !== null)) {
    await recordAudit(ctx, { action: "project.webhook_secret_rotated", target, details: { source: input.webhook_secret === null ? "removed" : "provided" } });
  }
  if (before.routingMode !== after.routingMode) {
    await recordAudit(ctx, { action: "project.routing_changed", target, details: { from: before.routingMode, to: after.routingMode } });
  }
}
