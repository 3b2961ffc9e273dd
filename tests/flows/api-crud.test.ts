import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, signupDraft } from "./support";

let h: Harness;
let seeded: Seeded;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
});
afterAll(() => h.close());

describe("POST /flows and GET /flows/{id}", () => {
  it("compiles a draft to Flow JSON 7.3 and derives field_schema", async () => {
    const flow = await createFlow(h, seeded.key, { config_key: "signup", locale: "pt-br" });
    expect(flow).toMatchObject({
      object: "flow",
      status: "DRAFT",
      meta_status: null,
      runtime_mode: "STATIC",
      locale: "pt-BR",
      config_key: "signup",
      published_version: null,
      has_unpublished_changes: false,
      agent_id: seeded.projectId,
      validation_errors: [],
    });
    expect(flow).not.toHaveProperty("flow_json");
    expect(flow.field_schema).toEqual([
      { name: "full_name", type: "text", required: true, screen: "DETAILS" },
      { name: "email", type: "email", required: true, screen: "DETAILS" },
      { name: "age", type: "number", required: false, screen: "DETAILS" },
      { name: "visit_date", type: "date", required: true, screen: "PREFERENCES" },
      { name: "topic", type: "radio", required: true, screen: "PREFERENCES" },
      { name: "marketing", type: "optin", required: false, screen: "PREFERENCES" },
    ]);
    const full = await h.app.call("GET", `/flows/${flow.id}?include=flow_json,draft`, { key: seeded.key });
    expect(full.status).toBe(200);
    expect(full.body.flow_json.version).toBe("7.3");
    expect((full.body.flow_json.screens as { id: string }[]).map((s) => s.id)).toEqual(["DETAILS", "PREFERENCES"]);
    expect(full.body.draft).toEqual(signupDraft());
  });

  it("needs exactly one of draft or flow_json", async () => {
    const neither = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "x" } });
    expect(neither.status).toBe(400);
    expect(neither.body.issues).toHaveProperty("draft");
    const both = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "x", draft: signupDraft(), flow_json: { version: "7.3", screens: [] } } });
    expect(both.status).toBe(400);
  });

  it("stores a draft with errors as work in progress, with pointers and next steps", async () => {
    const draft = signupDraft();
    draft.screens[0]!.next = "NOWHERE";
    const flow = await createFlow(h, seeded.key, { draft });
    expect(flow.status).toBe("DRAFT");
    const unknown = (flow.validation_errors as { code: string; path: string; next_steps: string }[]).find((e) => e.code === "UNKNOWN_SCREEN");
    expect(unknown).toMatchObject({ path: "/screens/0/next" });
    expect(unknown!.next_steps.length).toBeGreaterThan(0);
    const publish = await h.app.call("POST", `/flows/${flow.id}/publish`, { key: seeded.key });
    expect(publish.status).toBe(422);
    expect(publish.body.error).toBe("flow_invalid");
    expect(publish.body.validation_errors.some((e: { code: string }) => e.code === "UNKNOWN_SCREEN")).toBe(true);
  });

  it("stores flow_json as given and derives its field_schema from the complete payloads", async () => {
    const compiled = await h.app.call("GET", `/flows/${(await createFlow(h, seeded.key)).id}?include=flow_json`, { key: seeded.key });
    const given = await createFlow(h, seeded.key, { draft: undefined, flow_json: compiled.body.flow_json });
    expect(given.validation_errors).toEqual([]);
    expect(given.field_schema.map((f: { name: string }) => f.name)).toEqual(["full_name", "email", "age", "visit_date", "topic", "marketing"]);
    const full = await h.app.call("GET", `/flows/${given.id}?include=flow_json,draft`, { key: seeded.key });
    expect(full.body.flow_json).toEqual(compiled.body.flow_json);
    expect(full.body.draft).toBeNull();
  });

  it("refuses a second flow with the same config_key and locale (409 flow_conflict)", async () => {
    await createFlow(h, seeded.key, { config_key: "dup", locale: "en" });
    const again = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "Again", config_key: "dup", locale: "EN", draft: signupDraft() } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("flow_conflict");
    const otherLocale = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "es", config_key: "dup", locale: "es", draft: signupDraft() } });
    expect(otherLocale.status).toBe(200);
  });

  it("a DATA_EXCHANGE flow needs its data_exchange_url", async () => {
    const res = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "x", runtime_mode: "DATA_EXCHANGE", draft: signupDraft() } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toHaveProperty("data_exchange_url");
  });
});

describe("PATCH, DELETE, list and tenancy", () => {
  it("re-analyses on PATCH and keeps other fields", async () => {
    const flow = await createFlow(h, seeded.key, { description: "first" });
    const draft = signupDraft();
    draft.screens[1]!.fields.push({ name: "email", type: "text", label: "Again", required: false } as never);
    const res = await h.app.call("PATCH", `/flows/${flow.id}`, { key: seeded.key, body: { draft } });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe("first");
    expect(res.body.validation_errors.map((e: { code: string }) => e.code)).toContain("DUPLICATE_FIELD");
    const renamed = await h.app.call("PATCH", `/flows/${flow.id}`, { key: seeded.key, body: { name: "Renamed" } });
    expect(renamed.body.name).toBe("Renamed");
    expect(renamed.body.validation_errors.map((e: { code: string }) => e.code)).toContain("DUPLICATE_FIELD");
  });

  it("deletes a never-published flow; lists filter by config_key", async () => {
    const keep = await createFlow(h, seeded.key, { config_key: "listed" });
    const gone = await createFlow(h, seeded.key);
    const del = await h.app.call("DELETE", `/flows/${gone.id}`, { key: seeded.key });
    expect(del.body).toEqual({ object: "flow", id: gone.id, deleted: true });
    expect((await h.app.call("GET", `/flows/${gone.id}`, { key: seeded.key })).status).toBe(404);
    const list = await h.app.call("GET", "/flows?config_key=listed", { key: seeded.key });
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([keep.id]);
  });

  it("another project's flow is a 404 on every operation", async () => {
    const other = await h.app.addProject(seeded);
    const flow = await createFlow(h, seeded.key);
    for (const [method, path] of [
      ["GET", `/flows/${flow.id}`],
      ["PATCH", `/flows/${flow.id}`],
      ["DELETE", `/flows/${flow.id}`],
      ["POST", `/flows/${flow.id}/publish`],
      ["POST", `/flows/${flow.id}/deprecate`],
      ["GET", `/flows/${flow.id}/dispatches`],
      ["GET", `/flows/${flow.id}/submissions`],
    ] as const) {
      const res = await h.app.call(method, path, { key: other.key, ...(method === "PATCH" ? { body: { name: "mine" } } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});
