import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { expectHandlerHeaders, REQUEST_ID } from "../support/wire";
import { addOperator, dash } from "./support";

let app: TestApp;
let acme: Seeded;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
});
afterAll(() => app?.close());

describe("/api/dashboard routing (spec: 404 and 405 disambiguation, as on /api/v1)", () => {
  it.each(["/nope", "/projects", "/me/extra", "/invitations", "/invitations/x/accept/more"])("GET %s is a 404 without Svc-Version", async (path) => {
    const res = await dash(app, "GET", path);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.headers.get("request-id")).toMatch(REQUEST_ID);
  });

  it("an unserved method on a served account path is a 405 with Allow, without Svc-Version", async () => {
    const res = await dash(app, "DELETE", "/setup");
    expect(res.status).toBe(405);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.headers.get("allow")!.split(", ").sort()).toEqual(["GET", "POST"]);
  });

  it("an unserved path inside a project is a 404 without Svc-Version, once the operator is known", async () => {
    const owner = await addOperator(app, acme, "owner");
    const res = await dash(app, "GET", `/projects/${acme.projectId}/nope`, { as: owner });
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.body.message).toContain(`/api/dashboard/projects/{id}/nope`);
    expect((await dash(app, "GET", `/projects/${acme.projectId}/nope`)).status).toBe(401);
  });

  it("GET /identity (about the calling API key) is not served to an operator: 404, not a 500", async () => {
    const owner = await addOperator(app, acme, "owner");
    const res = await dash(app, "GET", `/projects/${acme.projectId}/identity`, { as: owner });
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-version")).toBeNull();
    expect((await dash(app, "GET", `/projects/${acme.projectId}/limits`, { as: owner })).status).toBe(200);
  });

  it("the account calls answer as handlers: Svc-Version and Request-Id", async () => {
    const res = await dash(app, "GET", "/setup");
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectHandlerHeaders(await dash(app, "GET", "/me"));
  });

  it("a cross-site write is refused before routing, served path or not", async () => {
    for (const path of ["/setup", "/nope"]) {
      const res = await dash(app, "POST", path, { body: {}, headers: { origin: "https://evil.example" } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("forbidden");
    }
  });
});
