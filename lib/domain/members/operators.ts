import bcrypt from "bcryptjs";
import { asc, count, eq, sql } from "drizzle-orm";
import { memberships, organizations, users } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";
import { newId } from "@/lib/ids";
import { SvcError } from "@/lib/errors";
import type { Role } from "./roles";

export type UserRow = typeof users.$inferSelect;

/** bcrypt cost 12: about a quarter second per check here, slow for guessing, fine for a sign-in. */
const BCRYPT_COST = 12;
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_BYTES = 72; // bcrypt ignores what comes after byte 72: refuse rather than truncate silently.

/** Emails are compared case-insensitively: stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function assertPasswordAcceptable(password: string, field = "password"): void {
  const problems: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) problems.push(`Use at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) problems.push(`Use at most ${MAX_PASSWORD_BYTES} bytes.`);
  if (problems.length) throw new SvcError("invalid_request", `The password is not acceptable: ${problems.join(" ")}`, { issues: { [field]: problems } });
}

async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

// A real hash to compare against when the email is unknown, so both answers take as long.
let decoyHash: Promise<string> | null = null;

/** The operator with this email and password, or null (unknown email and wrong password look alike). */
export async function verifyOperatorPassword(db: Db, email: string, password: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (!user?.passwordHash) {
    decoyHash ??= bcrypt.hash("decoy-password", BCRYPT_COST);
    await bcrypt.compare(password, await decoyHash);
    return null;
  }
  return (await bcrypt.compare(password, user.passwordHash)) ? user : null;
}

export async function createOperator(db: Db, input: { email: string; name: string | null; password: string }): Promise<UserRow> {
  assertPasswordAcceptable(input.password);
  const email = normalizeEmail(input.email);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing)
    throw new SvcError("conflict", `An operator with the email ${email} already exists. Sign in instead.`, { issues: { email: ["Already registered."] } });
  const [user] = await db
    .insert(users)
    .values({ id: newId("user"), email, name: input.name, passwordHash: await hashPassword(input.password) })
    .returning();
  return user!;
}

export async function addMembership(db: Db, organizationId: string, userId: string, role: Role): Promise<void> {
  await db
    .insert(memberships)
    .values({ id: newId("membership"), organizationId, userId, role })
    .onConflictDoNothing();
}

export async function operatorCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

const FIRST_OPERATOR_LOCK = 727_003;

/** The first organization created (the bootstrap demo one on a fresh install), which first-run operators join. */
async function oldestOrganizationId(db: Db): Promise<string | null> {
  const [org] = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.createdAt), asc(organizations.id)).limit(1);
  return org?.id ?? null;
}

/**
 * First run from SVC_ADMIN_EMAIL / SVC_ADMIN_PASSWORD: when that operator does not exist yet, create
 * them as owner of the oldest organization (the bootstrap demo one) or of a new one. Idempotent, and
 * safe when several processes start at once. Returns the user created, or null.
 */
export async function ensureAdminOperator(db: Db, email: string, password: string, now: Date): Promise<UserRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_OPERATOR_LOCK})`);
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, normalizeEmail(email)));
    if (existing) return null;
    const user = await createOperator(tx, { email, name: null, password });
    const org = await oldestOrganizationId(tx);
    const organizationId = org ?? (await newOrganizationWithProject(tx, "My organization", now)).organizationId;
    await addMembership(tx, organizationId, user.id, "owner");
    return user;
  });
}

async function newOrganizationWithProject(db: Db, name: string, now: Date): Promise<{ organizationId: string; projectId: string }> {
  // Imported lazily: organizations → projects → … would otherwise import members back at load time.
  const { createOrganization } = await import("@/lib/domain/organizations");
  const { createProjectRow } = await import("@/lib/domain/projects");
  const org = await createOrganization(db, { name });
  const project = await createProjectRow(db, org.id, { name: "My first project", description: null }, now);
  return { organizationId: org.id, projectId: project.id };
}

/**
 * The one-time set-up page: the first operator and their organization (the oldest one, which has no
 * operators yet since there are none, or a new one with a first project). Refused
 * (409 setup_complete) as soon as any operator exists, also when two set-ups race.
 */
export async function setupFirstOwner(db: Db, input: { name: string; email: string; password: string; organizationName: string }, now: Date): Promise<UserRow> {
  assertPasswordAcceptable(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_OPERATOR_LOCK})`);
    if ((await operatorCount(tx)) > 0)
      throw new SvcError("setup_complete", "Set-up is already complete. Sign in, or ask an owner of your organization for an invitation.");
    const user = await createOperator(tx, { email: input.email, name: input.name, password: input.password });
    // A fresh install already has the bootstrap demo organization (its key was printed at start):
    // the first owner adopts it, renamed, instead of leaving it without anyone to operate it.
    const org = await oldestOrganizationId(tx);
    let organizationId: string;
    if (org) {
      organizationId = org;
      // Lazily, as newOrganizationWithProject: organizations → projects → … imports members back.
      const { renameOrganization } = await import("@/lib/domain/organizations");
      await renameOrganization(tx, org, input.organizationName, now);
    } else {
      organizationId = (await newOrganizationWithProject(tx, input.organizationName, now)).organizationId;
    }
    await addMembership(tx, organizationId, user.id, "owner");
    return user;
  });
}
