import { count, eq, sql } from "drizzle-orm";
import { organizations } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { notFound } from "@/lib/errors";
import { ensureBuiltInPlans } from "@/lib/domain/plans";
import { ensureSandboxChannel } from "@/lib/domain/channels/sandbox";
import { createProjectRow } from "@/lib/domain/projects";
import { createApiKey, forgetAuthenticatedKeys } from "@/lib/domain/keys";

export type OrganizationRow = typeof organizations.$inferSelect;

export async function createOrganization(
  db: Db,
  input: { name: string | null; planId?: string; platformBEnabled?: boolean; platformCEnabled?: boolean },
): Promise<OrganizationRow> {
  const [org] = await db
    .insert(organizations)
    .values({
      id: newId("organization"),
      name: input.name,
      planId: input.planId ?? "free",
      platformBEnabled: input.platformBEnabled ?? false,
      platformCEnabled: input.platformCEnabled ?? false,
    })
    .returning();
  return org!;
}

export async function setOrganizationPlan(db: Db, organizationId: string, planId: string, now: Date): Promise<OrganizationRow> {
  const [org] = await db.update(organizations).set({ planId, updatedAt: now }).where(eq(organizations.id, organizationId)).returning();
  if (!org) throw notFound("organization", organizationId);
  forgetAuthenticatedKeys();
  return org;
}

/** The platform switches an operator turns per organization (PLATFORM_A is always on). */
export type SwitchablePlatform = "PLATFORM_B" | "PLATFORM_C";

export async function setOrganizationPlatform(
  db: Db,
  organizationId: string,
  platform: SwitchablePlatform,
  enabled: boolean,
  now: Date,
): Promise<OrganizationRow> {
  const column = platform === "PLATFORM_B" ? "platformBEnabled" : "platformCEnabled";
  const [org] = await db
    .update(organizations)
    .set({ [column]: enabled, updatedAt: now })
    .where(eq(organizations.id, organizationId))
    .returning();
  if (!org) throw notFound("organization", organizationId);
  forgetAuthenticatedKeys();
  return org;
}

/** Rows every installation needs: the built-in plans and the shared sandbox channel. Idempotent. */
export async function ensureReferenceData(db: Db): Promise<void> {
  await ensureBuiltInPlans(db);
  await ensureSandboxChannel(db);
}

const BOOTSTRAP_LOCK = 727_002;

export interface BootstrapResult {
  organizationId: string;
  projectId: string;
  /** The key value when bootstrap generated one (no SVC_BOOTSTRAP_KEY); null when it was given. */
  generatedKey: string | null;
}

/**
 * On an empty database: a demo organization (PLATFORM_B and PLATFORM_C on), its project and a
 * `*`-scoped key, with exactly `keyValue` when given (docs/spec/decisions.md "Set-up contract"). Returns null
 * when the database already has an organization. Safe when several processes start at once. It runs
 * before the runtime (and its clock) exists: the caller says when it is.
 */
export async function bootstrapDemo(db: Db, keyValue: string | null, now: Date): Promise<BootstrapResult | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
    const [existing] = await tx.select({ n: count() }).from(organizations);
    if ((existing?.n ?? 0) > 0) return null;
    const org = await createOrganization(tx, { name: "Demo organization", platformBEnabled: true, platformCEnabled: true });
    const project = await createProjectRow(tx, org.id, { name: "Demo project", description: "Created by svc on first start." }, now);
    const { value } = await createApiKey(tx, {
      organizationId: org.id,
      projectId: project.id,
      kind: "secret",
      name: "Bootstrap key",
      scopes: ["*"],
      ...(keyValue ? { value: keyValue } : {}),
    });
    return { organizationId: org.id, projectId: project.id, generatedKey: keyValue ? null : value };
  });
}

/** The first owner's set-up names the bootstrap organization it adopts. */
export async function renameOrganization(db: Db, id: string, name: string, now: Date): Promise<void> {
  await db.update(organizations).set({ name, updatedAt: now }).where(eq(organizations.id, id));
  forgetAuthenticatedKeys();
}
