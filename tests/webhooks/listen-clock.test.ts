import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectCtx } from "@/lib/domain/automations/runs";
import type { Ctx } from "@/lib/domain/context";
import { LISTEN_MAX_WAIT_SECONDS, listenForEvents } from "@/lib/domain/webhooks/listen";
import { createTestApp, type TestApp } from "../support/app";

/**
 * The long poll behind `svc listen` measures its wait on the clock port (monotonicMs), not the
 * process's: a test moves time past the wait instead of sleeping through it. (listen.test.ts covers
 * the route and the CLI over real HTTP.)
 */
let app: TestApp;
let ctx: Ctx;
beforeAll(async () => {
  app = await createTestApp();
  const seeded = await app.seed({ orgName: "Listen Clock Co" });
  ctx = (await projectCtx(app.systemCtx(), seeded.projectId))!;
});
afterAll(() => app?.close());

describe("a long poll with nothing to hand out", () => {
  it("answers empty once the service clock passes its wait, without waiting that long for real", async () => {
    const { cursor } = await listenForEvents(ctx, { wait: 0, limit: 10 });
    const started = performance.now();
    let answered = false;
    const pending = listenForEvents(ctx, { after: cursor, wait: LISTEN_MAX_WAIT_SECONDS, limit: 10 }).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(answered).toBe(false);

    app.clock.advance(LISTEN_MAX_WAIT_SECONDS * 1000);
    const answer = await pending;
    expect(answer).toMatchObject({ object: "event_batch", data: [], has_more: false });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("a wall clock set back or forward does not end it: only time that passes does", async () => {
    const { cursor } = await listenForEvents(ctx, { wait: 0, limit: 10 });
    let answered = false;
    const pending = listenForEvents(ctx, { after: cursor, wait: 2, limit: 10 }).finally(() => (answered = true));
    app.clock.set(app.clock.now().getTime() + 3600_000);
    app.clock.advance(-7200_000);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(answered).toBe(false);
    expect((await pending).data).toEqual([]);
  });
});
