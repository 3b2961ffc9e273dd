import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The first generated code collides with an existing project's; the retry must pick a new one.
const codes = vi.hoisted(() => ["collide1", "collide1", "fresh001"]);
vi.mock("@/lib/domain/projects/secrets", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/domain/projects/secrets")>();
  return { ...original, generateJoinCode: () => codes.shift() ?? original.generateJoinCode() };
});

const { createTestApp } = await import("./support/app");
const { createProjectRow } = await import("@/lib/domain/projects");
type App = Awaited<ReturnType<typeof createTestApp>>;

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("join codes", () => {
  it("a collision with an existing project's code is retried with a new code", async () => {
    const seeded = await app.seed();
    const again = await createProjectRow(app.db, seeded.orgId, { name: "Second" }, app.clock.now());
    expect(again.joinCode).toBe("fresh001");
  });

  it("other insert errors are not retried", async () => {
    codes.push("orphan01", "orphan02", "orphan03");
    await expect(createProjectRow(app.db, "org_missing", { name: "Orphan" }, app.clock.now())).rejects.toThrow();
    // One code consumed by the single failed attempt (a foreign-key error), not three.
    expect(codes).toEqual(["orphan02", "orphan03"]);
  });
});
