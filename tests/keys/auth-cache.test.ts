import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { apiKeys, organizations, plans, projects } from "@/lib/db/schema";
import { revokeApiKey, type AuthenticatedKey } from "@/lib/domain/keys";
import { AUTH_CACHE_TTL_MS, AUTH_CHANGED_CHANNEL, cachedAuthenticatedKey, forgetAuthenticatedKeys } from "@/lib/domain/keys/auth-cache";
import { upsertPlan } from "@/lib/domain/plans";
import { listenOnDatabase } from "@/lib/ports/db/listen";
import type { Db } from "@/lib/ports/db/types";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { executedDuring } from "../support/statements";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ orgName: "Cache Co" });
});
afterAll(() => app?.close());

const identity = (key: string) => app.call("GET", "/identity", { key });
/** Whether authenticating `key` reads the key from the database (executes the statement that selects by key_hash). */
async function readsKey(key: string): Promise<boolean> {
  const { result, executed } = await executedDuring(app.db, () => identity(key));
  expect(result.status).toBe(200);
  return executed.some((text) => text.includes('"key_hash" = $1'));
}

describe("authenticated keys are kept for a moment", () => {
  it("a key's next request within the second reads no key row; after a change it reads it again", async () => {
    forgetAuthenticatedKeys();
    expect(await readsKey(acme.key)).toBe(true);
    expect(await readsKey(acme.key)).toBe(false);
    forgetAuthenticatedKeys();
    expect(await readsKey(acme.key)).toBe(true);
  });

  it("a kept key is read again once AUTH_CACHE_TTL_MS has passed", async () => {
    forgetAuthenticatedKeys();
    expect(await readsKey(acme.key)).toBe(true);
    expect(await readsKey(acme.key)).toBe(false);
    app.clock.advance(AUTH_CACHE_TTL_MS + 1);
    expect(await readsKey(acme.key)).toBe(true);
  });

  it("revoking through the verb answers 401 on the very next request", async () => {
    const seeded = await app.seed({ orgName: "Revoked Co" });
    expect((await identity(seeded.key)).status).toBe(200);
    expect(await readsKey(seeded.key)).toBe(false);
    await revokeApiKey(app.db, seeded.projectId, seeded.keyId, app.clock.now());
    expect((await identity(seeded.key)).status).toBe(401);
  });

  it("a plan's new limits apply to the next request", async () => {
    const seeded = await app.seed({ orgName: "Plan Co" });
    await upsertPlan(app.db, {
      id: "cache-test",
      name: "Cache test",
      requestsPerWindow: 50,
      windowSeconds: 60,
      monthlyRequests: 1000,
      mediaRetentionSeconds: 60,
    });
    await app.db.update(organizations).set({ planId: "cache-test" }).where(eq(organizations.id, seeded.orgId));
    forgetAuthenticatedKeys();
    expect((await identity(seeded.key)).headers.get("ratelimit-limit")).toBe("50");
    await upsertPlan(app.db, {
      id: "cache-test",
      name: "Cache test",
      requestsPerWindow: 7,
      windowSeconds: 60,
      monthlyRequests: 1000,
      mediaRetentionSeconds: 60,
    });
    expect((await identity(seeded.key)).headers.get("ratelimit-limit")).toBe("7");
  });

  it("a change committed elsewhere (not through a verb of this process) is forgotten at its commit", async () => {
    const seeded = await app.seed({ orgName: "Elsewhere Co" });
    expect((await identity(seeded.key)).status).toBe(200);
    expect(await readsKey(seeded.key)).toBe(false);
    // As another process would: plain SQL, no call to forgetAuthenticatedKeys here. The trigger's NOTIFY reaches this process's LISTEN.
    await app.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, seeded.keyId));
    await expect.poll(async () => (await identity(seeded.key)).status, { timeout: AUTH_CACHE_TTL_MS / 2, interval: 10 }).toBe(401);
  });
});

describe("what the cache keeps", () => {
  const found = { key: { id: "key_1" } } as unknown as AuthenticatedKey;
  const db = {} as Db;

  it("concurrent misses of one key share one read", async () => {
    forgetAuthenticatedKeys();
    const read = vi.fn(() => new Promise<AuthenticatedKey>((resolve) => setTimeout(() => resolve(found), 5)));
    const [a, b] = await Promise.all([cachedAuthenticatedKey(db, "h1", 0, read), cachedAuthenticatedKey(db, "h1", 0, read)]);
    expect(a).toBe(found);
    expect(b).toBe(found);
    expect(read).toHaveBeenCalledTimes(1);
    expect(await cachedAuthenticatedKey(db, "h1", 0, read)).toBe(found);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("a read that a change overtook is answered but not kept", async () => {
    forgetAuthenticatedKeys();
    let finish!: (value: AuthenticatedKey) => void;
    const slow = vi.fn(() => new Promise<AuthenticatedKey>((resolve) => (finish = resolve)));
    const answered = cachedAuthenticatedKey(db, "h2", 0, slow);
    forgetAuthenticatedKeys();
    finish(found);
    expect(await answered).toBe(found);
    const again = vi.fn(async () => found);
    await cachedAuthenticatedKey(db, "h2", 0, again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it("an unknown key is never kept", async () => {
    const miss = vi.fn(async () => null);
    expect(await cachedAuthenticatedKey(db, "h3", 0, miss)).toBeNull();
    expect(await cachedAuthenticatedKey(db, "h3", 0, miss)).toBeNull();
    expect(miss).toHaveBeenCalledTimes(2);
  });
});

describe("drizzle/0025: which writes notify", () => {
  it("changes to a key, project, organization or plan do; a key's last use and a webhook's failing-since do not", async () => {
    const seeded = await app.seed({ orgName: "Notify Co" });
    const heard: string[] = [];
    const unlisten = await listenOnDatabase(
      app.runtime.database,
      AUTH_CHANGED_CHANNEL,
      (payload) => heard.push(payload),
      () => {},
    );
    // A marker notified after each write (they arrive in commit order): whatever arrives before it, the write notified.
    const notifies = async (write: () => Promise<unknown>): Promise<boolean> => {
      heard.length = 0;
      await write();
      await app.db.execute(sql`select pg_notify(${AUTH_CHANGED_CHANNEL}, 'marker')`);
      await expect.poll(() => heard.includes("marker"), { timeout: 2000, interval: 5 }).toBe(true);
      return heard.indexOf("marker") > 0;
    };
    try {
      expect(await notifies(() => app.db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, seeded.keyId)))).toBe(false);
      expect(await notifies(() => app.db.update(projects).set({ webhookFailingSince: new Date() }).where(eq(projects.id, seeded.projectId)))).toBe(false);
      expect(await notifies(() => app.db.update(projects).set({ name: "Renamed" }).where(eq(projects.id, seeded.projectId)))).toBe(true);
      expect(await notifies(() => app.db.update(organizations).set({ name: "Renamed Co" }).where(eq(organizations.id, seeded.orgId)))).toBe(true);
      expect(await notifies(() => app.db.update(plans).set({ name: "Free" }).where(eq(plans.id, "free")))).toBe(true);
      expect(
        await notifies(() =>
          app.db
            .update(apiKeys)
            .set({ scopes: ["messages:read"] })
            .where(eq(apiKeys.id, seeded.keyId)),
        ),
      ).toBe(true);
      expect(
        await notifies(() =>
          app.db
            .transaction(async (tx) =>
              tx
                .update(apiKeys)
                .set({ name: "rolled back" })
                .where(eq(apiKeys.id, seeded.keyId))
                .then(() => tx.rollback()),
            )
            .catch(() => {}),
        ),
      ).toBe(false);
    } finally {
      await unlisten();
    }
  });
});
