import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { organizations, plans, projects } from "@/lib/db/schema";
import { defineRoute } from "@/lib/api/route";
import { PageQuery, listOf } from "@/lib/api/schemas/common";
import { ProjectSummary } from "@/lib/api/schemas/projects";
import { createOrganization } from "@/lib/domain/organizations";
import { createProjectRow, listProjects } from "@/lib/domain/projects";
import { paginate } from "@/lib/domain/shared/paging";
import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { expectError } from "./support/wire";

let app: TestApp;
let acme: Seeded;
let globex: Seeded;
/** Operator context over an organization with 25 projects, created one second apart. */
let operator: Ctx;
/** Ids of those 25 projects, newest first. */
let newestFirst: string[];

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  globex = await app.seed({ orgName: "Globex" });
  const org = await createOrganization(app.db, { name: "Many" });
  const created: string[] = [];
  let first: typeof projects.$inferSelect | undefined;
  for (let i = 0; i < 25; i++) {
    app.clock.advance(1000);
    const row = await createProjectRow(app.db, org.id, { name: `P${String(i).padStart(2, "0")}` }, app.clock.now());
    first ??= row;
    created.push(row.id);
  }
  newestFirst = [...created].reverse();
  const [plan] = await app.db.select().from(plans).where(eq(plans.id, "free"));
  const [orgRow] = await app.db.select().from(organizations).where(eq(organizations.id, org.id));
  operator = {
    ...app.systemCtx(),
    db: app.db,
    org: orgRow!,
    project: first!,
    plan: plan!,
    actor: { type: "user", id: "u", role: "owner" },
    now: app.clock.now(),
  };
});
afterAll(() => app?.close());

describe("GET /projects paging parameters", () => {
  it("limit 1 and 100 are accepted", async () => {
    for (const limit of [1, 100]) {
      const res = await app.call("GET", `/projects?limit=${limit}`, { key: acme.key });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: "list", has_more: false });
      expect(res.body.data).toHaveLength(1);
    }
  });

  it.each(["0", "101", "-1", "abc", "1.5", ""])("limit=%j → 400 invalid_request keyed by limit", async (limit) => {
    const res = await app.call("GET", `/projects?limit=${limit}`, { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual(["limit"]);
  });

  it("an unknown starting_after → 400 invalid_request keyed by starting_after", async () => {
    const res = await app.call("GET", "/projects?starting_after=proj_unknown", { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(Object.keys(res.body.issues)).toEqual(["starting_after"]);
  });

  it("another tenant's id as starting_after is an unknown cursor, not a probe", async () => {
    for (const id of [globex.projectId, newestFirst[0]!]) {
      const res = await app.call("GET", `/projects?starting_after=${id}`, { key: acme.key });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["starting_after"]);
    }
  });

  it("starting_after = the key's own project gives an empty last page", async () => {
    const res = await app.call("GET", `/projects?starting_after=${acme.projectId}`, { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "list", data: [], has_more: false });
  });

  it("an empty starting_after → 400", async () => {
    const res = await app.call("GET", "/projects?starting_after=", { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("starting_after");
  });

  it("a repeated limit parameter → 400 (not silently the first or last)", async () => {
    const res = await app.call("GET", "/projects?limit=1&limit=2", { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("limit");
  });

  it("unknown query parameters are ignored", async () => {
    const res = await app.call("GET", "/projects?foo=bar", { key: acme.key });
    expect(res.status).toBe(200);
  });
});

describe("PageQuery", () => {
  it("defaults limit to 20 and coerces strings", () => {
    expect(PageQuery.parse({})).toEqual({ limit: 20 });
    expect(PageQuery.parse({ limit: "7", starting_after: "proj_x" })).toEqual({ limit: 7, starting_after: "proj_x" });
    expect(PageQuery.safeParse({ limit: "101" }).success).toBe(false);
    expect(PageQuery.safeParse({ limit: "0" }).success).toBe(false);
  });
});

describe("paginate over many rows (operator listProjects)", () => {
  it("first page: 20 newest first, has_more true", async () => {
    const page = await listProjects(operator, PageQuery.parse({}));
    expect(page.data).toHaveLength(20);
    expect(page.has_more).toBe(true);
    expect(page.data.map((p) => p.id)).toEqual(newestFirst.slice(0, 20));
    expect(page.data[0]!.name).toBe("P24");
    const times = page.data.map((p) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    // List form: never the secret.
    expect(page.data[0]).not.toHaveProperty("webhook_secret");
  });

  it("continues with starting_after until has_more is false, covering every row once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await listProjects(operator, { limit: 7, starting_after: cursor });
      pages++;
      seen.push(...page.data.map((p) => p.id));
      if (!page.has_more) break;
      cursor = page.data.at(-1)!.id;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(newestFirst);
  });

  it("second page of the default size holds the 5 oldest, has_more false", async () => {
    const page = await listProjects(operator, { limit: 20, starting_after: newestFirst[19] });
    expect(page.data.map((p) => p.id)).toEqual(newestFirst.slice(20));
    expect(page.has_more).toBe(false);
  });

  it("has_more is exact at the boundary", async () => {
    expect((await listProjects(operator, { limit: 25 })).has_more).toBe(false);
    expect((await listProjects(operator, { limit: 24 })).has_more).toBe(true);
    expect((await listProjects(operator, { limit: 100 })).data).toHaveLength(25);
    const last = await listProjects(operator, { limit: 1, starting_after: newestFirst[23] });
    expect(last).toEqual({ data: [expect.objectContaining({ id: newestFirst[24] })], has_more: false });
    expect(await listProjects(operator, { limit: 5, starting_after: newestFirst[24] })).toEqual({ data: [], has_more: false });
  });

  it("only the operator's organization is listed", async () => {
    const all = await listProjects(operator, { limit: 100 });
    expect(all.data.map((p) => p.id)).not.toContain(acme.projectId);
    expect(all.data.map((p) => p.id)).not.toContain(globex.projectId);
  });

  it("a cursor from another organization is refused with invalid_request", async () => {
    await expect(listProjects(operator, { limit: 5, starting_after: acme.projectId })).rejects.toMatchObject({
      code: "invalid_request",
      details: { issues: { starting_after: [expect.any(String)] } },
    });
    await expect(listProjects(operator, { limit: 5, starting_after: "proj_nope" })).rejects.toBeInstanceOf(SvcError);
  });

  it("paginate applies the scope filter itself", async () => {
    const page = await paginate(app.db, projects, eq(projects.organizationId, operator.org.id), { limit: 3 });
    expect(page.data.map((p) => p.id)).toEqual(newestFirst.slice(0, 3));
    expect(page.has_more).toBe(true);
    const none = await paginate(app.db, projects, eq(projects.organizationId, "org_none"), { limit: 3 });
    expect(none).toEqual({ data: [], has_more: false });
  });

  it("an API-key actor lists only its own project even with a large limit", async () => {
    const keyCtx: Ctx = { ...operator, actor: { type: "api_key", id: "key_x", name: null, prefix: "svc_live_xxx", display: "x", scopes: ["*"] } };
    const page = await listProjects(keyCtx, { limit: 100 });
    expect(page.data.map((p) => p.id)).toEqual([operator.project.id]);
  });
});

describe("paging through the route wrapper (test-only route over the operator list)", () => {
  const route = defineRoute({
    method: "GET",
    path: "/test/projects",
    operationId: "testListProjects",
    summary: "test",
    tag: "Test",
    scope: "projects:read",
    query: PageQuery,
    response: listOf(ProjectSummary, "TestProjectList"),
    handler: async ({ query }) => ({ object: "list" as const, ...(await listProjects(operator, query)) }),
  });

  async function run(query: string) {
    const res = await route.run(
      new Request(`http://svc.test/api/v1/test/projects${query}`, { headers: { authorization: `Bearer ${acme.key}` } }),
      {},
      app.runtime,
    );
    return { status: res.status, body: await res.json() };
  }

  it("default limit is 20 and has_more is true", async () => {
    const res = await run("");
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.has_more).toBe(true);
  });

  it("cursor continuation returns the rest", async () => {
    const first = await run("?limit=10");
    const second = await run(`?limit=10&starting_after=${first.body.data.at(-1).id}`);
    const third = await run(`?limit=10&starting_after=${second.body.data.at(-1).id}`);
    expect([first.body.has_more, second.body.has_more, third.body.has_more]).toEqual([true, true, false]);
    expect([...first.body.data, ...second.body.data, ...third.body.data].map((p: any) => p.id)).toEqual(newestFirst);
  });

  it("limit 101 → 400", async () => {
    const res = await run("?limit=101");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});
