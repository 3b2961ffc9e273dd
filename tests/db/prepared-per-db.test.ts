import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { channels, projects } from "@/lib/db/schema";
import { preparedPerDb } from "@/lib/ports/db/prepared";
import { createTestApp, type TestApp } from "../support/app";

/**
 * preparedPerDb builds a query once and, in a transaction, prepares the same SQL on the transaction's
 * own session (lib/ports/db/prepared.ts): it must run inside the transaction (see what it wrote, and
 * nothing once rolled back) and map rows exactly as the builder does, a left join's miss included.
 */
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const projectWithChannel = preparedPerDb((db) =>
  db
    .select({ id: projects.id, name: projects.name, createdAt: projects.createdAt, channel: channels })
    .from(projects)
    .leftJoin(channels, eq(channels.id, projects.channelId))
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("test_project_with_channel"),
);

describe("preparedPerDb in a transaction", () => {
  it("runs on the transaction's session and maps rows as the builder does", async () => {
    const seeded = await app.seed({ projectName: "Outside" });
    const [outside] = await projectWithChannel(app.db).execute({ id: seeded.projectId });
    expect(outside).toMatchObject({ id: seeded.projectId, name: "Outside", channel: null });
    expect(outside!.createdAt).toBeInstanceOf(Date);

    const rolledBack = new Error("roll back");
    await expect(
      app.db.transaction(async (tx) => {
        await tx.update(projects).set({ name: "Inside" }).where(eq(projects.id, seeded.projectId));
        const [inside] = await projectWithChannel(tx).execute({ id: seeded.projectId });
        // The transaction's own uncommitted write: the query ran inside it, on its connection.
        expect(inside).toMatchObject({ id: seeded.projectId, name: "Inside", channel: null });
        expect(inside!.createdAt).toEqual(outside!.createdAt);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);

    const [after] = await projectWithChannel(app.db).execute({ id: seeded.projectId });
    expect(after!.name).toBe("Outside");
  });

  it("a second transaction gets its own query, not the first one's", async () => {
    const seeded = await app.seed({ projectName: "Twice" });
    const seen = await Promise.all(
      ["A", "B"].map((suffix) =>
        app.db.transaction(async (tx) => {
          await tx
            .update(projects)
            .set({ name: `Twice ${suffix}` })
            .where(eq(projects.id, seeded.projectId));
          const [row] = await projectWithChannel(tx).execute({ id: seeded.projectId });
          return row!.name;
        }),
      ),
    );
    expect(seen.sort()).toEqual(["Twice A", "Twice B"]);
  });
});
