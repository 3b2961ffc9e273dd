import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { and, count, eq, type SQL } from "drizzle-orm";
import { channels, projects, sandboxParticipants } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import type { Ctx, ProjectRow } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { SvcError, notFound } from "@/lib/errors";
import { seal, unseal, unsealCached } from "@/lib/crypto/secrets";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { getSandboxChannel } from "@/lib/domain/channels/sandbox";
import { defaultLinked, serializeChannel } from "@/lib/domain/channels/serialize";
import { loadAnsweringFacts } from "@/lib/domain/channels/routing-warning";
import { publishReadinessOf } from "@/lib/domain/channels/publish-readiness";
import { generateJoinCode, generateWebhookSecret, isValidWebhookSecret } from "./secrets";
import { maySeeWebhookSecret } from "./secret-access";
import { assertOutboundUrl } from "@/lib/domain/shared/outbound-url";
import { resumeDeliveries } from "@/lib/domain/webhooks/enqueue";
import { recordAudit } from "@/lib/domain/audit/record";
import { recordProjectChanges } from "./audit";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";

type RoutingMode = ProjectRow["routingMode"];

export interface ProjectInput {
  name?: string;
  description?: string | null;
  routing_mode?: RoutingMode;
  require_opt_in?: boolean;
  webhook_url?: string | null;
  webhook_secret?: string | null;
}

const WEBHOOK_SECRET_ROLLOVER_MS = 24 * 3600_000;

/** Refuses webhook URLs on loopback, private, link-local or metadata addresses (unless the deployment allows them). */
async function checkWebhookUrl(ctx: Ctx, url: string): Promise<void> {
  await assertOutboundUrl("webhook_url", url, ctx.settings.allowPrivateNetwork);
}

function checkWebhookSecret(secret: string | null | undefined) {
  if (secret && !isValidWebhookSecret(secret)) {
    throw new SvcError("invalid_request", "webhook_secret must be 'whsec_' followed by base64 of 24 to 64 random bytes.", {
      issues: { webhook_secret: ["Expected 'whsec_' + base64 of 24 to 64 bytes, like the secrets svc generates."] },
    });
  }
}

/** Which projects an actor may see: an API key sees only its own project, an operator the organization's. */
function visibleProjects(ctx: Ctx): SQL | undefined {
  return ctx.actor.type === "api_key" ? and(eq(projects.organizationId, ctx.org.id), eq(projects.id, ctx.project.id)) : eq(projects.organizationId, ctx.org.id);
}

/** `newJoinCode` is the code generator; a test passes its own to force a collision. */
export async function createProjectRow(
  db: Db,
  organizationId: string,
  input: ProjectInput & { name: string },
  now: Date,
  newJoinCode: () => string = generateJoinCode,
): Promise<ProjectRow> {
  checkWebhookSecret(input.webhook_secret);
  const secret = input.webhook_secret === undefined ? generateWebhookSecret() : input.webhook_secret;
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(projects)
        .values({
          id: newId("project", now.getTime()),
          organizationId,
          name: input.name,
          description: input.description ?? null,
          routingMode: input.routing_mode ?? "EXTERNAL",
          requireOptIn: input.require_opt_in ?? true,
          webhookUrl: input.webhook_url ?? null,
          webhookSecretSealed: secret ? seal(secret) : null,
          joinCode: newJoinCode(),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row!;
    } catch (error) {
      // A join code collision (one in 31^8) is retried with a new code; anything else is real.
      if (attempt < 3 && isUniqueViolation(error, "projects_join_code_unique")) continue;
      throw error;
    }
  }
}

export async function createProject(ctx: Ctx, input: ProjectInput & { name: string }) {
  if (input.webhook_url) await checkWebhookUrl(ctx, input.webhook_url);
  const row = await createProjectRow(ctx.db, ctx.org.id, input, ctx.now);
  return serializeProjectWithSecret(ctx.db, row);
}

export async function getProjectRowOrThrow(ctx: Ctx, id: string): Promise<ProjectRow> {
  const [row] = await ctx.db
    .select()
    .from(projects)
    .where(and(visibleProjects(ctx), eq(projects.id, id)));
  if (!row) throw notFound("project", id);
  return row;
}

export async function getProject(ctx: Ctx, id: string) {
  const row = await getProjectRowOrThrow(ctx, id);
  // A dashboard viewer never receives the secret (secret-access.ts); webhook_signing_enabled still says whether signing is on.
  if (!maySeeWebhookSecret(ctx.actor)) return { ...(await serializeProject(ctx.db, row)), webhook_secret: null };
  return serializeProjectWithSecret(ctx.db, row);
}

export async function listProjects(ctx: Ctx, page: PageParams) {
  const result = await paginate(ctx.db, projects, visibleProjects(ctx), page);
  return { data: await Promise.all(result.data.map((p) => serializeProject(ctx.db, p))), has_more: result.has_more };
}

/**
 * Updating the webhook (URL or secret) also resumes an endpoint that was paused after 5 days of
 * failures, and sends every delivery that waited meanwhile.
 */
export async function updateProject(ctx: Ctx, id: string, input: ProjectInput) {
  const current = await getProjectRowOrThrow(ctx, id);
  checkWebhookSecret(input.webhook_secret);
  if (input.webhook_url) await checkWebhookUrl(ctx, input.webhook_url);
  const changes: Partial<typeof projects.$inferInsert> = { updatedAt: ctx.now };
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.routing_mode !== undefined) changes.routingMode = input.routing_mode;
  if (input.require_opt_in !== undefined) changes.requireOptIn = input.require_opt_in;
  if (input.webhook_url !== undefined) changes.webhookUrl = input.webhook_url;
  if (input.webhook_secret !== undefined) changes.webhookSecretSealed = input.webhook_secret ? seal(input.webhook_secret) : null;
  const webhookChanged = input.webhook_url !== undefined || input.webhook_secret !== undefined;
  if (webhookChanged) Object.assign(changes, { webhookPausedAt: null, webhookFailingSince: null });
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(projects).set(changes).where(eq(projects.id, current.id)).returning();
    if (webhookChanged && current.webhookPausedAt && updated!.webhookUrl) await resumeDeliveries(tx, ctx.ports.queue, current.id, ctx.now);
    await recordProjectChanges({ ...ctx, db: tx, project: current }, current, updated!, input);
    return updated!;
  });
  forgetAuthenticatedKeys();
  return serializeProjectWithSecret(ctx.db, row);
}

/** A new secret; the previous one keeps signing alongside it for 24 h so receivers can roll over. */
export async function rotateWebhookSecret(ctx: Ctx, id: string) {
  const current = await getProjectRowOrThrow(ctx, id);
  const secret = generateWebhookSecret();
  const previousExpiresAt = current.webhookSecretSealed ? new Date(ctx.now.getTime() + WEBHOOK_SECRET_ROLLOVER_MS) : null;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(projects)
      .set({
        webhookSecretSealed: seal(secret),
        previousWebhookSecretSealed: current.webhookSecretSealed,
        previousWebhookSecretExpiresAt: previousExpiresAt,
        updatedAt: ctx.now,
      })
      .where(eq(projects.id, current.id));
    await recordAudit(
      { ...ctx, db: tx, project: current },
      {
        action: "project.webhook_secret_rotated",
        target: { type: "project", id: current.id },
        details: { previous_secret_expires_at: previousExpiresAt?.toISOString() ?? null, source: "generated" },
      },
    );
  });
  forgetAuthenticatedKeys();
  return { object: "project_webhook_secret" as const, project_id: current.id, webhook_secret: secret };
}

/** What signing a delivery reads of a project: its sealed secrets and when the previous one expires. */
export type WebhookSigningProject = Pick<ProjectRow, "webhookSecretSealed" | "previousWebhookSecretSealed" | "previousWebhookSecretExpiresAt">;

/**
 * The secrets deliveries are signed with right now: the current one, plus the previous during rollover.
 * Unsealed through a small cache (unsealCached): every delivery signs, and a decryption each time was
 * 4 % of the worker's CPU per delivery.
 */
export function activeWebhookSecrets(project: WebhookSigningProject, now: Date): string[] {
  const secrets: string[] = [];
  if (project.webhookSecretSealed) secrets.push(unsealCached(project.webhookSecretSealed));
  if (project.previousWebhookSecretSealed && project.previousWebhookSecretExpiresAt && project.previousWebhookSecretExpiresAt > now) {
    secrets.push(unsealCached(project.previousWebhookSecretSealed));
  }
  return secrets;
}

/** The list form: never the signing secret. */
async function serializeProject(db: Db, project: ProjectRow) {
  const [dedicated] = project.channelId ? await db.select().from(channels).where(eq(channels.id, project.channelId)) : [];
  const effective = dedicated && dedicated.status === "connected" ? dedicated : await getSandboxChannel(db);
  const [participants] = await db.select({ n: count() }).from(sandboxParticipants).where(eq(sandboxParticipants.projectId, project.id));
  const linked = effective.isSandbox ? project : defaultLinked(effective, project);
  const facts = await loadAnsweringFacts(db, [{ channel: effective, project: linked }]);
  return {
    object: "project" as const,
    id: project.id,
    project_id: project.id,
    name: project.name,
    description: project.description,
    routing_mode: project.routingMode,
    join_code: project.joinCode,
    require_opt_in: project.requireOptIn,
    webhook_url: project.webhookUrl,
    webhook_signing_enabled: project.webhookSecretSealed !== null,
    channel_id: project.channelId,
    enrollment_channel: serializeChannel(effective, project, linked, facts),
    publish_readiness: publishReadinessOf(effective),
    participant_count: participants?.n ?? 0,
    // Flows arrive with the Flows capability; until then a project has none.
    flow_count: 0,
    created_at: project.createdAt.toISOString(),
    updated_at: project.updatedAt.toISOString(),
  };
}

/** Single GET, create, update: with the signing secret (docs/spec/service-spec.md: Project.webhook_secret). */
async function serializeProjectWithSecret(db: Db, project: ProjectRow) {
  return { ...(await serializeProject(db, project)), webhook_secret: project.webhookSecretSealed ? unseal(project.webhookSecretSealed) : null };
}
