import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/** POST/GET /registration-intents: keys, CORS, validation, reads (docs/spec/decisions.md "Registration intents"). */
let app: TestApp;
let seeded: Seeded;
beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
});
afterAll(() => app?.close());

const mint = (body: Record<string, unknown>, options: { key?: string; publishableKey?: string; headers?: Record<string, string> } = {}) =>
  app.call("POST", "/registration-intents", { ...(options.publishableKey ? {} : { key: options.key ?? seeded.key }), ...options, body });

async function publishable(origins: string[] = []): Promise<string> {
  const value = await app.addKey(seeded, [], "publishable");
  if (origins.length) await app.db.update(apiKeys).set({ allowedOrigins: origins }).where(eq(apiKeys.projectId, seeded.projectId));
  forgetAuthenticatedKeys();
  return value;
}

describe("POST /registration-intents", () => {
  it("mints a test-mode link on the sandbox with a secret key: token, prefilled text, wa.me link, 7 days", async () => {
    const res = await mint({ customer_reference: "cust-1", metadata: { page: "pricing" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const intent = res.body;
    expect(intent).toMatchObject({
      object: "registration_intent",
      id: expect.stringMatching(/^ri_/),
      token: expect.stringMatching(/^svcreg_[0-9A-Za-z]{22}$/),
      status: "PENDING",
      mode: "test",
      whatsapp_number: "+15550000000",
      customer_reference: "cust-1",
      metadata: { page: "pricing" },
      completed_at: null,
      contact_id: null,
    });
    expect(intent.prefilled_message).toBe(`Hi! Please register me. Ref: ${intent.token}`);
    expect(intent.wa_link).toBe(`https://wa.me/15550000000?text=${encodeURIComponent(intent.prefilled_message)}`);
    expect(new Date(intent.expires_at).getTime() - app.clock.now().getTime()).toBe(604_800_000);
  });

  it("appends the token to the caller's text and refuses a result over 140 characters", async () => {
    const own = await mint({ customer_reference: "cust-2", prefilled_message: "Sign me up please", expires_in_seconds: 60 });
    expect(own.status).toBe(200);
    expect(own.body.prefilled_message).toBe(`Sign me up please ${own.body.token}`);
    expect(own.body.prefilled_message.length).toBeLessThanOrEqual(140);
    const fits = await mint({ customer_reference: "cust-2", prefilled_message: "x".repeat(110) });
    expect(fits.status).toBe(200);
    expect(fits.body.prefilled_message).toHaveLength(140);
    const tooLong = await mint({ customer_reference: "cust-2", prefilled_message: "x".repeat(111) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.issues.prefilled_message).toBeDefined();
    const withToken = await mint({ customer_reference: "cust-2", prefilled_message: `Ref svcreg_${"a".repeat(22)}` });
    expect(withToken.status).toBe(400);
  });

  it("400 for a missing or too long reference, an expiry out of 60..604800, oversized metadata, unknown fields", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "customer_reference"],
      [{ customer_reference: "" }, "customer_reference"],
      [{ customer_reference: "r".repeat(201) }, "customer_reference"],
      [{ customer_reference: "r", expires_in_seconds: 59 }, "expires_in_seconds"],
      [{ customer_reference: "r", expires_in_seconds: 604_801 }, "expires_in_seconds"],
      [{ customer_reference: "r", metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, "metadata"],
      [{ customer_reference: "r", metadata: { big: "x".repeat(9000) } }, "metadata"],
      [{ customer_reference: "r", status: "COMPLETED" }, "status"],
    ];
    for (const [body, field] of cases) {
      const res = await mint(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body.issues)).toContain(field);
    }
    expect((await mint({ customer_reference: "r".repeat(200), expires_in_seconds: 604_800 })).status).toBe(200);
  });

  it("a publishable key in x-svc-publishable-key mints for its own project; as Bearer it is refused", async () => {
    const pub = await publishable();
    const res = await mint({ customer_reference: "web-1" }, { publishableKey: pub });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const read = await app.call("GET", `/registration-intents/${res.body.id}`, { key: seeded.key });
    expect(read.body.customer_reference).toBe("web-1");
    const bearer = await mint({ customer_reference: "web-1" }, { key: pub });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error).toBe("invalid_api_key");
    // ...and only here: a publishable key reads nothing.
    expect((await app.call("GET", "/registration-intents", { publishableKey: pub })).status).toBe(401);
  });

  it("a secret key needs registrations:create", async () => {
    const readOnly = await app.addKey(seeded, ["projects:read"]);
    const res = await mint({ customer_reference: "x" }, { key: readOnly });
    expect(res.status).toBe(403);
    expect(res.body.required_scope).toBe("registrations:create");
    const minter = await app.addKey(seeded, ["registrations:create"]);
    expect((await mint({ customer_reference: "x" }, { key: minter })).status).toBe(200);
  });
});

describe("CORS on POST /registration-intents", () => {
  it("an allowed origin gets Access-Control-Allow-Origin; another origin is 403 origin_not_allowed without it", async () => {
    const other = await app.addProject(seeded, "Web shop");
    const pub = await app.addKey({ ...seeded, projectId: other.projectId }, [], "publishable");
    await app.db
      .update(apiKeys)
      .set({ allowedOrigins: ["https://shop.example.com"] })
      .where(eq(apiKeys.projectId, other.projectId));
    forgetAuthenticatedKeys();
    const ok = await mint({ customer_reference: "c" }, { publishableKey: pub, headers: { origin: "https://shop.example.com" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    expect(ok.headers.get("vary")).toContain("Origin");
    expect(ok.headers.get("access-control-expose-headers")).toContain("Request-Id");

    const refused = await mint({ customer_reference: "c" }, { publishableKey: pub, headers: { origin: "https://evil.example" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "origin_not_allowed", origin: "https://evil.example" });
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    // No Origin: not a browser, so the list cannot bind it.
    expect((await mint({ customer_reference: "c" }, { publishableKey: pub })).status).toBe(200);
  });

  it("a key with no allowed origins answers any origin; errors before the key is known stay readable", async () => {
    const pub = await publishable();
    const any = await mint({ customer_reference: "c" }, { publishableKey: pub, headers: { origin: "http://localhost:5173" } });
    expect(any.status).toBe(200);
    expect(any.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    const invalid = await mint({ customer_reference: "" }, { publishableKey: pub, headers: { origin: "http://localhost:5173" } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });

  it("the OPTIONS preflight (no key) allows POST and the browser headers for any origin", async () => {
    const res = await app.call("OPTIONS", "/registration-intents", {
      headers: {
        origin: "https://anywhere.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-svc-publishable-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://anywhere.example");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = res.headers.get("access-control-allow-headers")!;
    for (const header of ["content-type", "x-svc-publishable-key", "idempotency-key", "svc-version"]) expect(allowed).toContain(header);
    expect(allowed).not.toContain("authorization");
    // Elsewhere OPTIONS is not served.
    expect((await app.call("OPTIONS", "/contacts")).status).toBe(405);
  });
});

describe("GET /registration-intents and /{id}", () => {
  it("lists newest first, filters by status as read (expiry by the clock), needs projects:read", async () => {
    const own = await app.addProject(seeded, "Lists");
    const short = await app.call("POST", "/registration-intents", { key: own.key, body: { customer_reference: "short", expires_in_seconds: 60 } });
    const long = await app.call("POST", "/registration-intents", { key: own.key, body: { customer_reference: "long" } });
    const all = await app.call("GET", "/registration-intents", { key: own.key });
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual([long.body.id, short.body.id]);

    app.clock.advance(61_000);
    expect((await app.call("GET", `/registration-intents/${short.body.id}`, { key: own.key })).body.status).toBe("EXPIRED");
    const pending = await app.call("GET", "/registration-intents?status=PENDING", { key: own.key });
    expect(pending.body.data.map((i: { id: string }) => i.id)).toEqual([long.body.id]);
    const expired = await app.call("GET", "/registration-intents?status=EXPIRED", { key: own.key });
    expect(expired.body.data.map((i: { id: string }) => i.id)).toEqual([short.body.id]);
    const byRef = await app.call("GET", "/registration-intents?customer_reference=long", { key: own.key });
    expect(byRef.body.data).toHaveLength(1);
    const paged = await app.call("GET", "/registration-intents?limit=1", { key: own.key });
    expect(paged.body).toMatchObject({ has_more: true, data: [{ id: long.body.id }] });

    const noRead = await app.addKey(seeded, ["registrations:create"]);
    const refused = await app.call("GET", "/registration-intents", { key: noRead });
    expect(refused.status).toBe(403);
    expect(refused.body.required_scope).toBe("projects:read");
  });

  it("another project's intent is 404", async () => {
    const mine = await mint({ customer_reference: "mine" });
    const other = await app.addProject(seeded, "Other");
    const res = await app.call("GET", `/registration-intents/${mine.body.id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
    const list = await app.call("GET", "/registration-intents", { key: other.key });
    expect(list.body.data.map((i: { id: string }) => i.id)).not.toContain(mine.body.id);
  });
});
