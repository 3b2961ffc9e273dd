import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// The codes the generator hands out next; each test sets its own sequence (codes.splice).
const codes = vi.hoisted((): string[] => []);
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
    // The seeded project takes the first code; the second project's first try collides with it.
    codes.splice(0, codes.length, "collide1", "collide1", "fresh001");
    const seeded = await app.seed();
    const again = await createProjectRow(app.db, seeded.orgId, { name: "Second" }, app.clock.now());
    expect(again.joinCode).toBe("fresh001");
  });

  it("other insert errors are not retried", async () => {
    codes.splice(0, codes.length, "orphan01", "orphan02", "orphan03");
    await expect(createProjectRow(app.db, "org_missing", { name: "Orphan" }, app.clock.now())).rejects.toThrow();
    // One code consumed by the single failed attempt (a foreign-key error), not three.
    expect(codes).toEqual(["orphan02", "orphan03"]);
  });
});
