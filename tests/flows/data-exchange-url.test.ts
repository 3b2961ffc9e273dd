import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { configDoc, flowEntry } from "../config/support";
import { signupDraft } from "./support";

/**
 * data_exchange_url is checked when it is written, with the guard webhook_url gets at write (issue 31,
 * item 13): under a policy that refuses private networks (production's), loopback, private, link-local
 * and metadata addresses are a 400 on POST /flows, PATCH /flows/{id} and config-as-code, not only a
 * refused forward later.
 */
let app: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  app = await createTestApp({ settings: { allowPrivateNetwork: false } });
  seeded = await app.seed();
});
afterAll(() => app?.close());

const REFUSED = [
  "http://127.0.0.1:8080/data",
  "http://[::1]/data",
  "http://169.254.169.254/latest/meta-data",
  "http://10.0.0.1/data",
  "http://[::ffff:127.0.0.1]/data",
  "http://0.0.0.0/data",
];
// A public address literal: accepted without a DNS lookup.
const PUBLIC = "https://93.184.215.14/flow-data";

function expectRefused(res: { status: number; body: any }, url: string) {
  expect(res.status, url).toBe(400);
  expect(res.body.error, url).toBe("invalid_request");
  expect(res.body.message, url).toMatch(/^data_exchange_url is not allowed: /);
  expect(res.body.issues.data_exchange_url, url).toEqual([expect.stringMatching(/public http\(s\) URL/)]);
}

async function createFlow(body: Record<string, unknown>) {
  return app.call("POST", "/flows", { key: seeded.key, body: { name: "Booking", draft: signupDraft(), ...body } });
}

describe("POST /flows", () => {
  it("refuses a loopback, private or metadata data_exchange_url and stores nothing", async () => {
    for (const url of REFUSED) expectRefused(await createFlow({ runtime_mode: "DATA_EXCHANGE", data_exchange_url: url }), url);
    const list = await app.call("GET", "/flows?limit=100", { key: seeded.key });
    expect(list.body.data).toEqual([]);
  });

  it("refuses it on a STATIC flow too: the URL is stored either way", async () => {
    expectRefused(await createFlow({ data_exchange_url: "http://169.254.169.254/latest" }), "static");
  });

  it("accepts a public URL", async () => {
    const res = await createFlow({ runtime_mode: "DATA_EXCHANGE", data_exchange_url: PUBLIC });
    expect(res.status).toBe(200);
    expect(res.body.data_exchange_url).toBe(PUBLIC);
  });
});

describe("PATCH /flows/{id}", () => {
  it("refuses a loopback or metadata data_exchange_url and keeps the stored one", async () => {
    const flow = await createFlow({ runtime_mode: "DATA_EXCHANGE", data_exchange_url: PUBLIC });
    for (const url of REFUSED) {
      expectRefused(await app.call("PATCH", `/flows/${flow.body.id}`, { key: seeded.key, body: { data_exchange_url: url } }), url);
    }
    const stat = await createFlow({});
    const switched = await app.call("PATCH", `/flows/${stat.body.id}`, {
      key: seeded.key,
      body: { runtime_mode: "DATA_EXCHANGE", data_exchange_url: "http://127.0.0.1/x" },
    });
    expectRefused(switched, "switch to DATA_EXCHANGE");
    expect((await app.call("GET", `/flows/${flow.body.id}`, { key: seeded.key })).body.data_exchange_url).toBe(PUBLIC);
    expect((await app.call("GET", `/flows/${stat.body.id}`, { key: seeded.key })).body).toMatchObject({ runtime_mode: "STATIC", data_exchange_url: null });
  });
});

describe("config-as-code", () => {
  it("reports a private data_exchange_url as an issue of the flow entry, and apply writes nothing", async () => {
    const own = await app.seed({ projectName: "Config" });
    const doc = configDoc({ flows: [flowEntry("booking", { runtime_mode: "DATA_EXCHANGE", data_exchange_url: "http://169.254.169.254/latest" })] });
    const validated = await app.call("POST", "/config/validate", { key: own.key, body: doc });
    expect(validated.body.valid).toBe(false);
    expect(validated.body.issues).toEqual([expect.objectContaining({ path: "flows.0.data_exchange_url", severity: "error" })]);
    const applied = await app.call("POST", "/config/apply", { key: own.key, body: doc });
    expect(applied.status).toBe(422);
    expect(applied.body.issues).toHaveProperty(["flows.0.data_exchange_url"]);
    expect((await app.call("GET", "/flows", { key: own.key })).body.data).toEqual([]);
  });
});
