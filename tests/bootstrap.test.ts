import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys, organizations, projects } from "@/lib/db/schema";
import { bootstrapDemo } from "@/lib/domain/organizations";
import { generateKeyValue } from "@/lib/domain/keys";
import { sha256Hex } from "@/lib/crypto/secrets";
import { createTestApp, type TestApp } from "./support/app";
import { WEBHOOK_SECRET } from "./support/wire";

// createTestApp's database has the reference data (plans, sandbox channel) but no organization, so
// bootstrapDemo must run here before anything is seeded.

describe("bootstrapDemo with SVC_BOOTSTRAP_KEY on an empty database", () => {
  let app: TestApp;
  let value: string;
  let result: Awaited<ReturnType<typeof bootstrapDemo>>;
  const bootstrappedAt = new Date(Date.now() - 365 * 24 * 3600_000);

  // A fresh database per test: the last tests add organizations the counts of the first would see.
  beforeEach(async () => {
    app = await createTestApp();
    expect(await app.db.select().from(organizations)).toEqual([]);
    value = generateKeyValue("secret");
    app.clock.set(bootstrappedAt);
    result = await bootstrapDemo(app.db, value, app.clock.now());
  });
  afterEach(() => app?.close());

  it("creates one organization with PLATFORM_B and PLATFORM_C on, on the free plan", async () => {
    expect(result).not.toBeNull();
    expect(result!.generatedKey).toBeNull();
    const orgs = await app.db.select().from(organizations);
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({ id: result!.organizationId, platformBEnabled: true, platformCEnabled: true, planId: "free" });
    expect(orgs[0]!.id).toMatch(/^org_[0-9a-z]{26}$/);
  });

  it("creates one project in that organization, with a webhook secret and a join code, made at the time it is given", async () => {
    const rows = await app.db.select().from(projects);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: result!.projectId, organizationId: result!.organizationId, routingMode: "EXTERNAL" });
    // The caller's now (no wall clock of its own): the runtime's clock, here the test's, a year back.
    expect(rows[0]!.createdAt).toEqual(bootstrappedAt);
    expect(rows[0]!.webhookSecretSealed).not.toBeNull();
  });

  it("creates one `*` secret key with exactly the given value, stored only as its hash", async () => {
    const keys = await app.db.select().from(apiKeys);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      organizationId: result!.organizationId,
      projectId: result!.projectId,
      kind: "secret",
      scopes: ["*"],
      keyHash: sha256Hex(value),
      prefix: value.slice(0, 12),
      revokedAt: null,
    });
  });

  it("the key works against the API with every scope", async () => {
    const identity = await app.call("GET", "/identity", { key: value });
    expect(identity.status).toBe(200);
    expect(identity.body).toMatchObject({
      organization: { id: result!.organizationId },
      project: { id: result!.projectId },
      api_key: { scopes: ["*"], prefix: value.slice(0, 12) },
      plan: "free",
    });
    const project = await app.call("GET", `/projects/${result!.projectId}`, { key: value });
    expect(project.status).toBe(200);
    expect(project.body.webhook_secret).toMatch(WEBHOOK_SECRET);
    expect((await app.call("GET", "/limits", { key: value })).status).toBe(200);
  });

  it("does nothing on a database that already has an organization", async () => {
    const again = await bootstrapDemo(app.db, generateKeyValue("secret"), app.clock.now());
    expect(again).toBeNull();
    const none = await bootstrapDemo(app.db, null, app.clock.now());
    expect(none).toBeNull();
    expect(await app.db.select().from(organizations)).toHaveLength(1);
    expect(await app.db.select().from(projects)).toHaveLength(1);
    expect(await app.db.select().from(apiKeys)).toHaveLength(1);
  });

  it("does nothing once any organization exists, even one it did not create", async () => {
    await app.seed({ orgName: "Later" });
    expect(await bootstrapDemo(app.db, generateKeyValue("secret"), app.clock.now())).toBeNull();
    expect(await app.db.select().from(organizations)).toHaveLength(2);
  });
});

describe("bootstrapDemo with an invalid key value, then without one", () => {
  let app: TestApp;
  // A fresh, empty database per test: the second one creates what the first checks is absent.
  beforeEach(async () => {
    app = await createTestApp();
  });
  afterEach(() => app?.close());

  it("refuses a value that is not a secret key and leaves the database empty (one transaction)", async () => {
    await expect(bootstrapDemo(app.db, "svc_pub_" + "a".repeat(32), app.clock.now())).rejects.toThrow();
    await expect(bootstrapDemo(app.db, "not-a-key", app.clock.now())).rejects.toThrow();
    expect(await app.db.select().from(organizations)).toEqual([]);
    expect(await app.db.select().from(projects)).toEqual([]);
    expect(await app.db.select().from(apiKeys)).toEqual([]);
  });

  it("without a value: generates a `*` key, returns it once, and it works", async () => {
    const result = await bootstrapDemo(app.db, null, app.clock.now());
    expect(result!.generatedKey).toMatch(/^svc_live_[0-9A-Za-z]{32}$/);
    const [key] = await app.db.select().from(apiKeys).where(eq(apiKeys.projectId, result!.projectId));
    expect(key!.keyHash).toBe(sha256Hex(result!.generatedKey!));
    const identity = await app.call("GET", "/identity", { key: result!.generatedKey! });
    expect(identity.status).toBe(200);
    expect(identity.body.api_key.scopes).toEqual(["*"]);
  });
});

describe("bootstrapDemo run concurrently", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it("creates exactly one organization when two processes start at once", async () => {
    const results = await Promise.all([
      bootstrapDemo(app.db, generateKeyValue("secret"), app.clock.now()),
      bootstrapDemo(app.db, generateKeyValue("secret"), app.clock.now()),
    ]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await app.db.select().from(organizations)).toHaveLength(1);
    expect(await app.db.select().from(apiKeys)).toHaveLength(1);
  });
});
