import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { memberships, organizations, users } from "@/lib/db/schema";
import { bootstrapDemo } from "@/lib/domain/organizations";
import { ensureAdminOperator, verifyOperatorPassword } from "@/lib/domain/members/operators";
import { createTestApp, type TestApp } from "../support/app";
import { addOperator, dash, sessionCookie } from "./support";

describe("first run", () => {
  // First run means an empty database: each test gets its own, as the other leaves an owner behind.
  let empty: TestApp;
  beforeEach(async () => {
    empty = await createTestApp();
  });
  afterEach(() => empty?.close());

  it("the set-up page creates the first owner once, adopting the bootstrap organization", async () => {
    const demo = await bootstrapDemo(empty.db, null, empty.clock.now());
    expect((await dash(empty, "GET", "/setup")).body).toEqual({ object: "setup", needed: true });

    const weak = await dash(empty, "POST", "/setup", { body: { name: "Ada", email: "ada@example.test", password: "short", organization_name: "Ada Corp" } });
    expect(weak.status).toBe(400);
    expect(weak.body.issues.password).toBeDefined();

    const body = { name: "Ada", email: "Ada@Example.test", password: "correct horse battery", organization_name: "Ada Corp" };
    const setUpAt = new Date(Date.now() - 3600_000);
    empty.clock.set(setUpAt);
    const [first, second] = await Promise.all([
      dash(empty, "POST", "/setup", { body }),
      dash(empty, "POST", "/setup", { body: { ...body, email: "eve@example.test" } }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 409]);
    expect([first.body.error, second.body.error]).toContain("setup_complete");
    const winner = first.status === 200 ? first.body : second.body;
    expect((await dash(empty, "GET", "/setup")).body.needed).toBe(false);

    const [membership] = await empty.db.select().from(memberships).where(eq(memberships.userId, winner.id));
    expect(membership).toMatchObject({ organizationId: demo!.organizationId, role: "owner" });
    const [org] = await empty.db.select().from(organizations).where(eq(organizations.id, demo!.organizationId));
    expect(org!.name).toBe("Ada Corp");
    // Renamed at the service clock's now, not the process's wall clock.
    expect(org!.updatedAt).toEqual(setUpAt);

    const [row] = await empty.db.select().from(users).where(eq(users.id, winner.id));
    expect(row!.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(row!.passwordHash).not.toContain("correct horse");
    expect(await verifyOperatorPassword(empty.db, winner.email, "correct horse battery")).not.toBeNull();
    expect(await verifyOperatorPassword(empty.db, winner.email, "wrong password!!")).toBeNull();
    expect(await verifyOperatorPassword(empty.db, "nobody@example.test", "correct horse battery")).toBeNull();
  });

  it("SVC_ADMIN_EMAIL / SVC_ADMIN_PASSWORD make an owner once (idempotent across restarts)", async () => {
    const created = await ensureAdminOperator(empty.db, "Admin@Example.test", "admin-password-123", empty.clock.now());
    expect(created?.email).toBe("admin@example.test");
    expect(await ensureAdminOperator(empty.db, "admin@example.test", "admin-password-123", empty.clock.now())).toBeNull();
    const me = await dash(empty, "GET", "/me", { headers: { cookie: await sessionCookie(created!.id, created!.email) } });
    expect(me.body.organizations[0].role).toBe("owner");
    expect(await verifyOperatorPassword(empty.db, "ADMIN@example.test", "admin-password-123")).not.toBeNull();
  });
});

describe("invitations", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("an invitation link makes a new member with the invited role, once, and expires after 7 days", async () => {
    const seeded = await app.seed({ orgName: "Invites" });
    const admin = await addOperator(app, seeded, "admin");
    const base = `/projects/${seeded.projectId}`;
    const invite = await dash(app, "POST", `${base}/members`, { as: admin, body: { email: "New.Person@example.test", role: "developer" } });
    expect(invite.status).toBe(200);
    const token = invite.body.url.split("/invite/")[1] as string;
    expect(token).toBeTruthy();
    const open = await dash(app, "GET", `${base}/invitations`, { as: admin });
    expect(open.body.data.map((i: { email: string }) => i.email)).toEqual(["new.person@example.test"]);

    const described = await dash(app, "GET", `/invitations/${token}`);
    expect(described.body).toMatchObject({ email: "new.person@example.test", role: "developer", organization_name: "Invites", existing_user: false });

    const accepted = await dash(app, "POST", `/invitations/${token}/accept`, { body: { name: "New Person", password: "a long enough password" } });
    expect(accepted.status).toBe(200);
    expect(await verifyOperatorPassword(app.db, "new.person@example.test", "a long enough password")).not.toBeNull();
    const me = await dash(app, "GET", "/me", { headers: { cookie: await sessionCookie(accepted.body.id, accepted.body.email) } });
    expect(me.body.organizations).toMatchObject([{ id: seeded.orgId, role: "developer" }]);

    expect((await dash(app, "POST", `/invitations/${token}/accept`, { body: { password: "a long enough password" } })).status).toBe(404);
    expect((await dash(app, "GET", `/invitations/${token}`)).status).toBe(404);

    const again = await dash(app, "POST", `${base}/members`, { as: admin, body: { email: "new.person@example.test", role: "viewer" } });
    expect(again.status).toBe(409);

    const late = await dash(app, "POST", `${base}/members`, { as: admin, body: { email: "late@example.test", role: "viewer" } });
    const lateToken = late.body.url.split("/invite/")[1] as string;
    app.clock.advance(7 * 86_400_000 + 1000);
    expect((await dash(app, "GET", `/invitations/${lateToken}`)).status).toBe(404);
  });

  it("a revoked invitation no longer works", async () => {
    const seeded = await app.seed({ orgName: "Revokes" });
    const owner = await addOperator(app, seeded, "owner");
    const invite = await dash(app, "POST", `/projects/${seeded.projectId}/members`, { as: owner, body: { email: "x@example.test", role: "viewer" } });
    expect((await dash(app, "DELETE", `/projects/${seeded.projectId}/invitations/${invite.body.id}`, { as: owner })).status).toBe(200);
    const token = invite.body.url.split("/invite/")[1] as string;
    expect((await dash(app, "GET", `/invitations/${token}`)).status).toBe(404);
  });
});
