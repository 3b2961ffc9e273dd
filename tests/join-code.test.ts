import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProjectRow } from "@/lib/domain/projects";
import { createTestApp, type TestApp } from "./support/app";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

/** A join code generator that hands out `codes` in order (and records what it handed out). */
function sequence(codes: string[]) {
  const handedOut: string[] = [];
  const next = () => {
    const code = codes.shift();
    if (code === undefined) throw new Error("the test's join code sequence ran out");
    handedOut.push(code);
    return code;
  };
  return { next, handedOut };
}

describe("join codes", () => {
  it("a collision with an existing project's code is retried with a new code", async () => {
    const seeded = await app.seed();
    const first = await createProjectRow(app.db, seeded.orgId, { name: "First" }, app.clock.now(), sequence(["collide1"]).next);
    expect(first.joinCode).toBe("collide1");
    const codes = sequence(["collide1", "fresh001"]);
    const again = await createProjectRow(app.db, seeded.orgId, { name: "Second" }, app.clock.now(), codes.next);
    expect(again.joinCode).toBe("fresh001");
    expect(codes.handedOut).toEqual(["collide1", "fresh001"]);
  });

  it("other insert errors are not retried", async () => {
    const codes = sequence(["orphan01", "orphan02", "orphan03"]);
    await expect(createProjectRow(app.db, "org_missing", { name: "Orphan" }, app.clock.now(), codes.next)).rejects.toThrow();
    // One code consumed by the single failed attempt (a foreign-key error), not three.
    expect(codes.handedOut).toEqual(["orphan01"]);
  });
});
