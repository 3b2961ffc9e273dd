import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "./support/app";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

describe("GET /projects", () => {
  it("lists only the key's project, without the signing secret", async () => {
    const res = await app.call("GET", "/projects", { key: acme.key });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.map((p: any) => p.id)).toEqual([acme.projectId]);
    expect(res.body.data[0]).not.toHaveProperty("webhook_secret");
    expect(res.body.data[0].webhook_signing_enabled).toBe(true);
  });
});
