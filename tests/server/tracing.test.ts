import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { closeServer, listenOn } from "@/lib/server/node-http";
import { scrubbed, startTracing, tracesUrl, type Tracing } from "@/lib/server/tracing";
import { tracingOn } from "@/lib/ports/tracing";
import { createTestApp, type Seeded, type TestApp } from "../support/app";

/**
 * Traces (README "Health and metrics"): with an OTLP endpoint configured, API operations and job runs
 * arrive at a tiny local OTLP/HTTP receiver as spans named by route template, with allow-listed
 * attributes only; without one nothing is recorded, so nothing can be sent.
 */
interface OtlpSpan {
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

let app: TestApp;
let seeded: Seeded;
let tracing: Tracing | null = null;
const batches: { resourceSpans: { resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: { spans: OtlpSpan[] }[] }[] }[] = [];
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  req.on("end", () => {
    if (req.url === "/v1/traces") batches.push(JSON.parse(body));
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
let receiverUrl = "";

beforeAll(async () => {
  app = await createTestApp();
  seeded = await app.seed();
  receiverUrl = await listenOn(receiver);
});

afterEach(async () => {
  await tracing?.stop();
  tracing = null;
});

afterAll(async () => {
  await closeServer(receiver);
  await app.close();
});

function spans(): OtlpSpan[] {
  return batches.flatMap((batch) => batch.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
}

function attributesOf(span: OtlpSpan): Record<string, unknown> {
  return Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
}

describe("tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("starts nothing and records no span, so nothing is ever sent", async () => {
    expect(tracesUrl({})).toBeNull();
    expect(startTracing({ serviceName: "svc-test", environment: {} })).toBeNull();
    expect(tracingOn()).toBe(false);
    expect((await app.call("GET", "/identity", { key: seeded.key })).status).toBe(200);
    const span = trace.getTracer("probe").startSpan("probe");
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(batches).toEqual([]);
  });
});

describe("tracing on", () => {
  it("takes the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", () => {
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toBe("http://collector:4318/v1/traces");
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/custom" })).toBe("http://collector:4318/custom");
  });

  it("sends API operation and job spans to the OTLP receiver, named by template, without ids in names or attributes", async () => {
    tracing = startTracing({ serviceName: "svc-test", environment: { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl } });
    expect(tracing).not.toBeNull();
    expect((await app.call("GET", "/identity", { key: seeded.key })).status).toBe(200);
    expect((await app.call("GET", "/contacts/ct_secretcontact", { key: seeded.key })).status).toBe(404);
    await app.runtime.ports.queue.send("media.expire", {});
    expect(await app.runtime.ports.queue.drain()).toBeGreaterThanOrEqual(1);
    await tracing!.flush();

    expect(batches.length).toBeGreaterThan(0);
    expect(batches[0]!.resourceSpans[0]!.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "svc-test" } });
    const all = spans();
    const identity = all.find((s) => s.name === "GET /api/v1/identity");
    expect(identity).toBeDefined();
    expect(identity!.kind).toBe(SpanKind.SERVER + 1); // OTLP numbers kinds from 1 (SPAN_KIND_SERVER = 2)
    expect(attributesOf(identity!)).toMatchObject({ "http.route": "/api/v1/identity", "http.request.method": "GET", "svc.operation": "getIdentity" });
    expect(Number(attributesOf(identity!)["http.response.status_code"])).toBe(200);
    expect(all.some((s) => s.name === "GET /api/v1/contacts/{id}")).toBe(true);
    const job = all.find((s) => s.name === "job media.expire");
    expect(job).toBeDefined();
    expect(attributesOf(job!)).toMatchObject({ "messaging.destination.name": "media.expire" });
    const serialized = JSON.stringify(batches);
    for (const secret of ["ct_secretcontact", seeded.key, seeded.projectId, seeded.keyId]) expect(serialized).not.toContain(secret);
  });
});

describe("the scrubbing of spans", () => {
  const base = {
    kind: SpanKind.SERVER,
    spanContext: () => ({ traceId: "0".repeat(32), spanId: "1".repeat(16), traceFlags: 1 }),
    startTime: [0, 0],
    endTime: [0, 1],
    links: [],
    duration: [0, 1],
    ended: true,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  } as unknown as ReadableSpan;

  it("names next's request span by its route and drops raw targets, exception events and status messages", () => {
    const span = {
      ...base,
      name: "GET /api/v1/contacts/ct_123?phone=15551234567",
      attributes: {
        "http.method": "GET",
        "http.target": "/api/v1/contacts/ct_123?phone=15551234567",
        "next.route": "/api/v1/[[...path]]",
        "http.status_code": 404,
      },
      events: [{ name: "exception", attributes: { "exception.message": "contact 15551234567 not found" }, time: [0, 0] }],
      status: { code: SpanStatusCode.ERROR, message: "contact 15551234567 not found" },
    } as unknown as ReadableSpan;
    const out = scrubbed(span);
    expect(out.name).toBe("GET /api/v1/[[...path]]");
    expect(out.attributes).toEqual({ "http.method": "GET", "next.route": "/api/v1/[[...path]]", "http.status_code": 404 });
    expect(out.events).toEqual([]);
    expect(out.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(out.droppedAttributesCount).toBe(1);
    expect(out.droppedEventsCount).toBe(1);
  });

  it("names a request span without a known route '(unmatched)'", () => {
    const span = { ...base, name: "POST /v1/whatever/42", attributes: {}, events: [], status: { code: SpanStatusCode.UNSET } } as unknown as ReadableSpan;
    expect(scrubbed(span).name).toBe("POST (unmatched)");
  });
});
