import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "@/cli/commands";
import { eq } from "drizzle-orm";
import { organizations } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "./support/app";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ scopes: ["projects:read"] });
});
afterAll(() => app?.close());

async function run(group: string, name: string, flags: Record<string, string | boolean>) {
  const command = commands.find((c) => c.group === group && c.name === name)!;
  const lines: string[] = [];
  await command.run(flags, { db: async () => app.db, out: (line) => lines.push(line) });
  return lines;
}

describe("svc CLI", () => {
  it("keys create prints a new secret key once, and that key works with exactly its scopes", async () => {
    const [value, note] = await run("keys", "create", { project: acme.projectId, scopes: "limits:read,projects:read", name: "ci" });
    expect(value).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    expect(note).toContain("Shown once");
    expect((await app.call("GET", "/limits", { key: value })).status).toBe(200);
    const denied = await app.call("POST", "/projects", { key: value, body: { name: "x" } });
    expect(denied.status).toBe(403);
    expect(denied.body.required_scope).toBe("projects:write");
    const listed = await run("keys", "list", { project: acme.projectId });
    expect(listed.join("\n")).not.toContain(value);
    expect(listed.join("\n")).toContain(value!.slice(0, 13));
  });

  it("keys create --publishable makes a svc_pub_ key limited to registrations:create", async () => {
    const [value, note] = await run("keys", "create", { project: acme.projectId, publishable: true });
    expect(value).toMatch(/^svc_pub_[0-9A-Za-z]{32}$/);
    expect(note).toContain("registrations:create");
    const asBearer = await app.call("GET", "/identity", { key: value });
    expect(asBearer.status).toBe(401);
  });

  it("rejects unknown scopes and unknown projects with a clear message", async () => {
    await expect(run("keys", "create", { project: acme.projectId, scopes: "messages:fly" })).rejects.toThrow(/Unknown scope/);
    await expect(run("keys", "create", { project: "proj_nope", scopes: "*" })).rejects.toThrow(/No project 'proj_nope'/);
  });

  it("keys revoke makes the key invalid at once", async () => {
    const [value] = await run("keys", "create", { project: acme.projectId, scopes: "*" });
    const identity = await app.call("GET", "/identity", { key: value });
    await run("keys", "revoke", { project: acme.projectId, key: identity.body.api_key.id });
    const after = await app.call("GET", "/identity", { key: value });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe("invalid_api_key");
  });

  it("projects list shows every project with its organization and plan", async () => {
    const lines = await run("projects", "list", {});
    expect(lines.some((l) => l.startsWith(acme.projectId) && l.includes(acme.orgId) && l.includes("plan free"))).toBe(true);
  });

  it("plans set + orgs set-plan change the limits a key reports", async () => {
    await run("plans", "set", { id: "bench", requests: "1000000", window: "60", monthly: "1000000000" });
    await run("orgs", "set-plan", { org: acme.orgId, plan: "bench" });
    const key = await app.addKey(acme, ["limits:read"]);
    const limits = await app.call("GET", "/limits", { key });
    expect(limits.body.rate_limit.requests).toBe(1_000_000);
    expect(limits.body.monthly_quota.requests).toBe(1_000_000_000);
    await run("orgs", "set-plan", { org: acme.orgId, plan: "free" });
  });

  it("orgs enable-platform turns PLATFORM_B off and on through the organizations module; a wrong platform or org says so", async () => {
    const switched = async () => (await app.db.select().from(organizations).where(eq(organizations.id, acme.orgId)))[0]!.platformBEnabled;
    expect(await run("orgs", "enable-platform", { org: acme.orgId, platform: "PLATFORM_B", off: true })).toEqual([`PLATFORM_B is off for ${acme.orgId}.`]);
    expect(await switched()).toBe(false);
    await run("orgs", "enable-platform", { org: acme.orgId, platform: "PLATFORM_B" });
    expect(await switched()).toBe(true);
    await expect(run("orgs", "enable-platform", { org: acme.orgId, platform: "PLATFORM_A" })).rejects.toThrow(/PLATFORM_B or PLATFORM_C/);
    await expect(run("orgs", "enable-platform", { org: "org_nope", platform: "PLATFORM_C" })).rejects.toThrow(/org_nope/);
  });
});
