import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeRows } from "@/lib/ports/db/bulk";
import { MEDIA_EXPIRE_JOB } from "@/lib/domain/media/cache";
import { createTestApp, type TestApp } from "../support/app";

/**
 * Recurring work is one chain however many workers start (issue 36: recurring jobs run once per period
 * across workers): sendOnce's look and send are one step under an advisory lock on the key.
 */
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app.close();
});

async function live(key: string): Promise<number> {
  const [row] = await executeRows<{ n: number }>(
    app.db,
    sql`select count(*)::int as n from pgboss.job where singleton_key = ${key} and state in ('created', 'retry', 'active')`,
  );
  return row!.n;
}

describe("queue.sendOnce", () => {
  it("leaves one live job when several processes schedule the same chain at the same instant", async () => {
    const key = `send-once-${Date.now()}`;
    const sent = await Promise.all(Array.from({ length: 6 }, () => app.runtime.ports.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: key })));
    expect(sent.filter((id) => id !== null)).toHaveLength(1);
    expect(await live(key)).toBe(1);
  });

  it("lets the running job schedule its successor (exceptJobId), and no one else", async () => {
    const key = `send-once-next-${Date.now()}`;
    const first = await app.runtime.ports.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: key });
    expect(first).not.toBeNull();
    expect(await app.runtime.ports.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: key, startAfter: 60_000 })).toBeNull();
    const next = await app.runtime.ports.queue.sendOnce(MEDIA_EXPIRE_JOB, {}, { singletonKey: key, startAfter: 60_000, exceptJobId: first! });
    expect(next).not.toBeNull();
    expect(await live(key)).toBe(2);
  });
});
