import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "../dashboard/support";

let app: TestApp;
let acme: Seeded;
const ops: Partial<Record<"owner" | "admin" | "developer" | "viewer", Operator>> = {};
let counter = 0;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  for (const role of ["owner", "admin", "developer", "viewer"] as const) ops[role] = await addOperator(app, acme, role);
});
afterAll(() => app?.close());

async function enrolled(): Promise<string> {
  const phone = `+1555700${String(++counter).padStart(4, "0")}`;
  const res = await app.call("POST", "/contacts", { key: acme.key, body: { phone } });
  expect(res.status).toBe(200);
  return res.body.id;
}

const eraseAs = (op: Operator, id: string) =>
  dash(app, "DELETE", `/projects/${acme.projectId}/contacts/${id}`, { as: op, headers: { origin: "http://svc.test" } });

describe("DELETE /contacts/{id} from the dashboard", () => {
  it("is refused to developers and viewers (403 insufficient_scope), and changes nothing", async () => {
    const id = await enrolled();
    for (const role of ["developer", "viewer"] as const) {
      const res = await eraseAs(ops[role]!, id);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("insufficient_scope");
    }
    expect((await app.call("GET", `/contacts/${id}`, { key: acme.key })).status).toBe(200);
  });

  it("is allowed to admins and owners", async () => {
    for (const role of ["admin", "owner"] as const) {
      const id = await enrolled();
      const res = await eraseAs(ops[role]!, id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: "contact", id, deleted: true, erased: true });
      expect((await app.call("GET", `/contacts/${id}`, { key: acme.key })).status).toBe(404);
    }
  });
});
