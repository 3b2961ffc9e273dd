import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businessAgents, channels, events, organizations, projects, sandboxParticipants, webhookDeliveries } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { PAUSE_AFTER_MS } from "@/lib/domain/webhooks/schedule";
import {
  assessReadiness,
  isProductionInboundReady,
  isSandboxTestable,
  loadReadinessFacts,
  overallStatusOf,
  REQUIREMENTS,
  type ReadinessFacts,
} from "@/lib/domain/readiness/project";
import { CAPABILITY_NAMES } from "@/lib/domain/readiness/types";
import { createTestApp, type Seeded, type TestApp } from "./support/app";
import { insertAutomation } from "./automations/support";
import { expectError, expectHandlerHeaders, expectRateLimitHeaders } from "./support/wire";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

let app: TestApp;
let acme: Seeded;
/** Another organization. */
let globex: Seeded;
/** A second project in acme's organization, with its own key. */
let sibling: { projectId: string; key: string };

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed();
  globex = await app.seed({ orgName: "Globex", projectName: "Globex main" });
  sibling = await app.addProject(acme);
});
afterAll(() => app?.close());

/** docs/spec/service-spec.md: ProjectReadiness, exactly. */
const READINESS_FIELDS = [
  "object",
  "project_id",
  "project_name",
  "overall_status",
  "requirements",
  "sandbox_testable",
  "production_inbound_ready",
  "effective_channel",
  "sandbox_channel",
  "dedicated_channel",
  "capabilities",
  "issues",
  "next_steps",
].sort();
/** docs/spec/service-spec.md: FriendlyIssue, exactly. */
const ISSUE_FIELDS = ["code", "severity", "area", "title", "message", "next_steps"].sort();
const WEBHOOK_URL = "https://hooks.example.com/svc";
const CAPABILITY_STATUS = ["ready", "testable", "blocked", "warning", "not_applicable"];
const SEVERITY_ORDER = { blocked: 0, warning: 1, info: 2 } as const;

let serial = 0;
function providerId(prefix: string) {
  serial += 1;
  return `${prefix}${Date.now().toString(36)}${serial}`;
}

/** A fresh organization with one project and a `*` key; project columns set as given. */
async function fresh(name: string, values: Partial<typeof projects.$inferInsert> = {}) {
  const seeded = await app.seed({ orgName: `${name} org`, projectName: name });
  if (Object.keys(values).length) await setProject(seeded.projectId, values);
  return seeded;
}

async function setProject(id: string, values: Partial<typeof projects.$inferInsert>) {
  await app.db.update(projects).set(values).where(eq(projects.id, id));
  forgetAuthenticatedKeys();
}

async function setChannel(id: string, values: Partial<typeof channels.$inferInsert>) {
  await app.db.update(channels).set(values).where(eq(channels.id, id));
}

/** Testers who joined the project on the sandbox (as `join <code>` records them). */
async function addTesters(projectId: string, n = 1) {
  for (let i = 0; i < n; i++) {
    // A counter, not the clock: addresses share one unique index on the sandbox channel.
    serial += 1;
    await app.db.insert(sandboxParticipants).values({
      id: newId("participant"),
      projectId,
      channelId: SANDBOX_CHANNEL_ID,
      address: `1555${String(serial).padStart(6, "0")}${i}`,
      joinedAt: app.clock.now(),
    });
  }
}

/** Connects a dedicated PLATFORM_A channel with the key (it becomes the project's channel_id). */
async function connectA(key: string, extra: Record<string, unknown> = {}) {
  const credentials = { phone_number_id: providerId("pn"), business_account_id: providerId("waba"), access_token: `EAAG-${providerId("tok")}` };
  const res = await app.call("POST", "/channels", {
    key,
    body: { platform: "PLATFORM_A", display_name: "Support", phone_number: "+14155550100", credentials, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; routing_mode: string };
}

/** What the provider reports for a fully set-up business: nothing blocks publishing. */
const VERIFIED = { businessVerificationStatus: "verified", accountReviewStatus: "APPROVED", phoneNumberStatus: "CONNECTED", paymentStatus: "active" } as const;

/** A project that is ready: webhook with a secret, a tester, a verified dedicated channel. */
async function readyProject(name: string) {
  const seeded = await fresh(name, { webhookUrl: WEBHOOK_URL });
  await addTesters(seeded.projectId);
  const channel = await connectA(seeded.key);
  await setChannel(channel.id, VERIFIED);
  return { seeded, channel };
}

/** An active automation: under FLOWS something answers, so routing does not warn. */
const withAutomation = (projectId: string) =>
  insertAutomation(app, projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: [{ send_reply: { text: "hi" } }] });

async function readiness(seeded: { key: string; projectId: string }) {
  const res = await app.call("GET", `/projects/${seeded.projectId}/readiness`, { key: seeded.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const codes = (body: any) => body.issues.map((i: any) => i.code);
const issueOf = (body: any, code: string) => body.issues.find((i: any) => i.code === code);

/** Invariants every readiness body holds. */
function expectWellFormed(body: any) {
  expect(Object.keys(body).sort()).toEqual(READINESS_FIELDS);
  expect(body.object).toBe("project_readiness");
  expect(Object.keys(body.capabilities)).toEqual([...CAPABILITY_NAMES]);
  for (const capability of Object.values<any>(body.capabilities)) {
    expect(Object.keys(capability).sort()).toEqual(["message", "status"]);
    expect(CAPABILITY_STATUS).toContain(capability.status);
    expect(capability.message.length).toBeGreaterThan(0);
  }
  for (const issue of body.issues) {
    expect(Object.keys(issue).sort()).toEqual(ISSUE_FIELDS);
    expect(["info", "warning", "blocked"]).toContain(issue.severity);
    expect(issue.next_steps.length).toBeGreaterThan(0);
  }
  // Most important first, and next_steps are the issues' steps in that order, without duplicates.
  const ranks = body.issues.map((i: any) => SEVERITY_ORDER[i.severity as keyof typeof SEVERITY_ORDER]);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  expect(body.next_steps).toEqual([...new Set(body.issues.flatMap((i: any) => i.next_steps))]);
  expect(REQUIREMENTS.filter((r) => body.requirements.includes(r))).toEqual(body.requirements);
  expect(body.production_inbound_ready).toBe(["ready", "warning"].includes(body.capabilities.production_inbound.status));
  // The headline agrees with the rows: sandbox_testable is the sandbox_messaging row, and "blocked"
  // (nothing can be tested) exactly when neither the sandbox nor the own number works.
  expect(body.sandbox_testable).toBe(body.capabilities.sandbox_messaging.status !== "blocked");
  const nothingWorks = body.capabilities.sandbox_messaging.status === "blocked" && !body.production_inbound_ready;
  expect(body.overall_status === "blocked").toBe(nothingWorks);
}

describe("GET /readiness and GET /projects/{id}/readiness", () => {
  it("a new project (EXTERNAL, no webhook_url): every field, testable with the missing webhook URL as the blocker", async () => {
    const seeded = await fresh("Newbie");
    const res = await app.call("GET", `/projects/${seeded.projectId}/readiness`, { key: seeded.key });
    expect(res.status).toBe(200);
    expectHandlerHeaders(res);
    expectRateLimitHeaders(res);
    const body = res.body;
    expectWellFormed(body);
    const sandbox = (await app.call("GET", `/channels/${SANDBOX_CHANNEL_ID}`, { key: seeded.key })).body;
    const [project] = await app.db.select().from(projects).where(eq(projects.id, seeded.projectId));
    expect(body).toMatchObject({
      object: "project_readiness",
      project_id: seeded.projectId,
      project_name: "Newbie",
      overall_status: "testable_with_blockers",
      sandbox_testable: true,
      production_inbound_ready: false,
      effective_channel: sandbox,
      sandbox_channel: sandbox,
      dedicated_channel: null,
    });
    // Serialized exactly like GET /channels/{id}, routing_warning included.
    expect(body.sandbox_channel).toEqual(sandbox);
    expect(body.sandbox_channel.routing_warning).toMatch(/no webhook_url/);
    expect(body.requirements).toEqual([
      "sandbox_channel",
      "sandbox_tester_joined",
      "webhook_url",
      "dedicated_channel",
      "inbound_routing",
      "flows_publishing",
      "template_submission",
    ]);
    expect(Object.fromEntries(Object.entries<any>(body.capabilities).map(([k, v]) => [k, v.status]))).toEqual({
      sandbox_messaging: "warning",
      webhook: "blocked",
      production_inbound: "blocked",
      flows_publishing: "testable",
      templates: "blocked",
    });
    // The sandbox's own routing warning has the same cause as WEBHOOK_URL_MISSING: reported once.
    expect(codes(body)).toEqual(["WEBHOOK_URL_MISSING", "NO_SANDBOX_TESTERS", "NO_DEDICATED_CHANNEL", "SANDBOX_TEMPLATES_NOT_SUPPORTED"]);
    expect(issueOf(body, "WEBHOOK_URL_MISSING")).toEqual({
      code: "WEBHOOK_URL_MISSING",
      severity: "blocked",
      area: "webhook",
      title: "No webhook URL",
      message: expect.stringContaining("no webhook_url"),
      next_steps: [
        `Set your endpoint: PATCH /projects/${seeded.projectId} with {"webhook_url": "https://your-app.example.com/webhooks/svc"}.`,
        `Or handle inbound with native automations instead: PATCH /projects/${seeded.projectId} with {"routing_mode": "FLOWS"}.`,
      ],
    });
    expect(issueOf(body, "NO_SANDBOX_TESTERS")).toMatchObject({
      severity: "warning",
      area: "sandbox",
      next_steps: [`Send \`join ${project!.joinCode}\` to +15550000000 from the phone you test with.`],
    });
    expect(body.capabilities.sandbox_messaging.message).toContain(`join ${project!.joinCode}`);
    expect(body.next_steps[0]).toBe(
      `Set your endpoint: PATCH /projects/${seeded.projectId} with {"webhook_url": "https://your-app.example.com/webhooks/svc"}.`,
    );
  });

  it("GET /readiness answers for the key's project, the same as GET /projects/{id}/readiness", async () => {
    const mine = await app.call("GET", "/readiness", { key: acme.key });
    expect(mine.status).toBe(200);
    expectHandlerHeaders(mine);
    expectWellFormed(mine.body);
    expect(mine.body.project_id).toBe(acme.projectId);
    expect(mine.body).toEqual((await app.call("GET", `/projects/${acme.projectId}/readiness`, { key: acme.key })).body);
    const siblings = await app.call("GET", "/readiness", { key: sibling.key });
    expect(siblings.body.project_id).toBe(sibling.projectId);
  });

  it("404 for another organization's project, a sibling project and an unknown id, all alike", async () => {
    const missingId = `${globex.projectId.slice(0, -1)}0`;
    const missing = await app.call("GET", `/projects/${missingId}/readiness`, { key: acme.key });
    expectError(missing, 404, "not_found");
    expectHandlerHeaders(missing);
    for (const id of [globex.projectId, sibling.projectId]) {
      const res = await app.call("GET", `/projects/${id}/readiness`, { key: acme.key });
      expectError(res, 404, "not_found");
      expect(JSON.stringify(res.body)).not.toContain("Globex");
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(missing.body).sort());
      expect(res.body.message.replace(id, "X")).toBe(missing.body.message.replace(missingId, "X"));
    }
  });

  it("needs projects:read: 403 insufficient_scope otherwise, on both paths", async () => {
    const narrow = await app.addKey(acme, ["channels:read", "projects:write"]);
    for (const path of ["/readiness", `/projects/${acme.projectId}/readiness`]) {
      const res = await app.call("GET", path, { key: narrow });
      expectError(res, 403, "insufficient_scope");
      expect(res.body.required_scope).toBe("projects:read");
    }
    const reader = await app.addKey(acme, ["projects:read"]);
    expect((await app.call("GET", "/readiness", { key: reader })).status).toBe(200);
    expect((await app.call("GET", `/projects/${acme.projectId}/readiness`, { key: reader })).status).toBe(200);
  });

  it("401 without a key", async () => {
    expectError(await app.call("GET", "/readiness"), 401, "missing_api_key");
    expectError(await app.call("GET", `/projects/${acme.projectId}/readiness`), 401, "missing_api_key");
  });

  it("is documented in OpenAPI: scope projects:read, ProjectReadiness with nullable channels", async () => {
    const doc = (await app.call("GET", "/openapi.json")).body;
    for (const path of ["/readiness", "/projects/{id}/readiness"]) {
      expect(doc.paths[path].get["x-svc-scope"]).toBe("projects:read");
      expect(doc.paths[path].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ProjectReadiness" });
    }
    const schema = doc.components.schemas.ProjectReadiness;
    expect(Object.keys(schema.properties).sort()).toEqual(READINESS_FIELDS);
    expect([...schema.required].sort()).toEqual(READINESS_FIELDS);
    for (const field of ["effective_channel", "sandbox_channel", "dedicated_channel"]) {
      expect(schema.properties[field].anyOf).toEqual([{ $ref: "#/components/schemas/Channel" }, { type: "null" }]);
    }
    expect(Object.keys(doc.components.schemas.FriendlyIssue.properties).sort()).toEqual(ISSUE_FIELDS);
  });

  it("400 for an id longer than 200 characters", async () => {
    const res = await app.call("GET", `/projects/${"p".repeat(201)}/readiness`, { key: acme.key });
    expectError(res, 400, "invalid_request");
    expect(res.body.issues).toHaveProperty("id");
  });
});

describe("overall_status", () => {
  it("not blocked while sandbox messaging is testable: a tester joined, inbound forwards to a missing webhook", async () => {
    // The headline used to say "blocked" (nothing can be tested) beside a Testable sandbox row.
    const seeded = await fresh("Half blocked");
    await addTesters(seeded.projectId);
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.capabilities.sandbox_messaging.status).toBe("testable");
    expect(body.capabilities.webhook.status).toBe("blocked");
    expect(body).toMatchObject({ overall_status: "testable_with_blockers", sandbox_testable: true, production_inbound_ready: false });
    expect(codes(body)[0]).toBe("WEBHOOK_URL_MISSING");
  });

  it("testable_with_blockers also with a dedicated number that is still pending (the sandbox still works)", async () => {
    const seeded = await fresh("Pending blocked");
    const channel = await connectA(seeded.key);
    await setChannel(channel.id, { status: "pending" });
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.overall_status).toBe("testable_with_blockers");
    expect(body.sandbox_testable).toBe(true);
    expect(codes(body).slice(0, 2)).toEqual(["WEBHOOK_URL_MISSING", "DEDICATED_CHANNEL_NOT_CONNECTED"]);
    // The sandbox stays the effective channel until the number is connected.
    expect(body.effective_channel.id).toBe(SANDBOX_CHANNEL_ID);
    expect(body.dedicated_channel).toEqual((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body);
  });

  it("sandbox_ready: a webhook and a tester, no number of its own", async () => {
    const seeded = await fresh("Sandboxed", { webhookUrl: WEBHOOK_URL });
    await addTesters(seeded.projectId, 2);
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body).toMatchObject({ overall_status: "sandbox_ready", sandbox_testable: true, production_inbound_ready: false, dedicated_channel: null });
    expect(body.capabilities.sandbox_messaging).toEqual({ status: "testable", message: expect.stringContaining("2 testers joined") });
    expect(body.capabilities.webhook.status).toBe("ready");
    expect(body.sandbox_channel.routing_warning).toBeNull();
    // Only info left: the stage itself.
    expect(body.issues.map((i: any) => [i.code, i.severity])).toEqual([
      ["NO_DEDICATED_CHANNEL", "info"],
      ["SANDBOX_TEMPLATES_NOT_SUPPORTED", "info"],
    ]);
  });

  it("sandbox_ready with nobody joined yet: the join step is the next step", async () => {
    const seeded = await fresh("Unjoined", { routingMode: "FLOWS" });
    const body = await readiness(seeded);
    expect(body.overall_status).toBe("sandbox_ready");
    expect(body.sandbox_testable).toBe(true);
    expect(codes(body)[0]).toBe("NO_SANDBOX_TESTERS");
    expect(body.next_steps[0]).toMatch(/^Send `join [a-z2-9]{8}` to \+15550000000/);
  });

  it("testable_with_blockers: the number works, the provider has not reported the account yet", async () => {
    const seeded = await fresh("Unknown status", { webhookUrl: WEBHOOK_URL });
    await addTesters(seeded.projectId);
    const channel = await connectA(seeded.key);
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body).toMatchObject({ overall_status: "testable_with_blockers", sandbox_testable: true, production_inbound_ready: true });
    expect(body.effective_channel).toEqual((await app.call("GET", `/channels/${channel.id}`, { key: seeded.key })).body);
    expect(body.dedicated_channel).toEqual(body.effective_channel);
    expect(codes(body)).toEqual(["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"]);
    expect(body.issues.every((i: any) => i.severity === "blocked" && i.area === "publishing")).toBe(true);
    expect(body.capabilities.templates.status).toBe("blocked");
    // Neither blocker stops Flows (PublishReadiness.can_publish_flows agrees).
    expect(body.effective_channel.publish_readiness.can_publish_flows).toBe(true);
    expect(body.capabilities.flows_publishing.status).toBe("ready");
  });

  it("testable_with_blockers: production works on the number, but the sandbox forwards to a missing webhook", async () => {
    const seeded = await fresh("Half", { routingMode: "EXTERNAL" });
    const channel = await connectA(seeded.key, { routing_mode: "FLOWS" });
    await setChannel(channel.id, VERIFIED);
    await withAutomation(seeded.projectId);
    const body = await readiness(seeded);
    expect(body).toMatchObject({ overall_status: "testable_with_blockers", sandbox_testable: true, production_inbound_ready: true });
    expect(body.capabilities.production_inbound.status).toBe("ready");
    expect(codes(body)[0]).toBe("WEBHOOK_URL_MISSING");
    expect(issueOf(body, "WEBHOOK_URL_MISSING").message).toContain("shared sandbox");
    expect(issueOf(body, "WEBHOOK_URL_MISSING").message).not.toContain(channel.id);
  });

  it("ready_with_warnings: everything works, but deliveries are not signed", async () => {
    const { seeded } = await readyProject("Unsigned");
    await setProject(seeded.projectId, { webhookSecretSealed: null });
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body).toMatchObject({ overall_status: "ready_with_warnings", sandbox_testable: true, production_inbound_ready: true });
    expect(codes(body)).toEqual(["WEBHOOK_SIGNING_DISABLED"]);
    expect(body.capabilities.webhook.status).toBe("warning");
  });

  it("ready: nothing to do", async () => {
    const { seeded, channel } = await readyProject("Live");
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body).toMatchObject({ overall_status: "ready", sandbox_testable: true, production_inbound_ready: true, issues: [], next_steps: [] });
    expect(body.effective_channel.id).toBe(channel.id);
    expect(body.effective_channel.routing_warning).toBeNull();
    expect(body.sandbox_channel.id).toBe(SANDBOX_CHANNEL_ID);
    expect(Object.fromEntries(Object.entries<any>(body.capabilities).map(([k, v]) => [k, v.status]))).toEqual({
      sandbox_messaging: "testable",
      webhook: "ready",
      production_inbound: "ready",
      flows_publishing: "ready",
      templates: "ready",
    });
    expect(body.requirements).toEqual([...REQUIREMENTS]);
  });

  it("ready with only info issues: no sandbox tester once the own number is connected", async () => {
    const seeded = await fresh("Live no testers", { webhookUrl: WEBHOOK_URL });
    const channel = await connectA(seeded.key);
    await setChannel(channel.id, VERIFIED);
    const body = await readiness(seeded);
    expect(body.overall_status).toBe("ready");
    expect(body.issues.map((i: any) => [i.code, i.severity])).toEqual([["NO_SANDBOX_TESTERS", "info"]]);
    expect(body.capabilities.sandbox_messaging.status).toBe("not_applicable");
  });

  it("the rule, case by case (the headline never says blocked while a path can be tested)", () => {
    type Issue = "blocked" | "warning" | "info" | "blocked-sandbox";
    const rule = (sandboxTestable: boolean, productionInboundReady: boolean, hasDedicated: boolean, issues: Issue[]) =>
      overallStatusOf({
        sandboxTestable,
        productionInboundReady,
        hasDedicated,
        issues: issues.map((i) => (i === "blocked-sandbox" ? { severity: "blocked" as const, blocksSandbox: true } : { severity: i })),
      });
    const table: [sandboxTestable: boolean, productionReady: boolean, hasDedicated: boolean, issues: Issue[], expected: string][] = [
      // Nothing works: the sandbox is down and there is no working number.
      [false, false, false, ["blocked-sandbox"], "blocked"],
      [false, false, true, ["blocked-sandbox", "blocked"], "blocked"],
      // The sandbox works, but its inbound reaches nobody (webhook missing or paused): testable, not blocked.
      [true, false, false, ["blocked-sandbox", "warning"], "testable_with_blockers"],
      [true, false, true, ["blocked-sandbox", "blocked"], "testable_with_blockers"],
      // The sandbox works end to end; a blocker elsewhere (e.g. a FLOWS project's paused webhook) does not stop it.
      [true, false, false, ["blocked", "warning"], "sandbox_ready"],
      [true, false, false, ["warning", "info"], "sandbox_ready"],
      [true, false, false, [], "sandbox_ready"],
      // A number of its own.
      [true, false, true, [], "testable_with_blockers"],
      [false, true, true, ["blocked-sandbox"], "testable_with_blockers"],
      [true, true, true, ["blocked"], "testable_with_blockers"],
      [true, true, true, ["blocked-sandbox"], "testable_with_blockers"],
      [true, true, true, ["warning", "info"], "ready_with_warnings"],
      [true, true, true, ["info"], "ready"],
      [true, true, true, [], "ready"],
    ];
    for (const [sandboxTestable, productionReady, hasDedicated, issues, expected] of table) {
      expect(rule(sandboxTestable, productionReady, hasDedicated, issues), JSON.stringify([sandboxTestable, productionReady, hasDedicated, issues])).toBe(
        expected,
      );
    }
  });

  it("sandbox_testable and production_inbound_ready are read off the capability rows", () => {
    const row = (status: "ready" | "testable" | "warning" | "blocked" | "not_applicable") => ({ status, message: "m" });
    expect(isSandboxTestable({ sandbox_messaging: row("testable") })).toBe(true);
    expect(isSandboxTestable({ sandbox_messaging: row("warning") })).toBe(true);
    expect(isSandboxTestable({ sandbox_messaging: row("not_applicable") })).toBe(true);
    expect(isSandboxTestable({ sandbox_messaging: row("blocked") })).toBe(false);
    expect(isProductionInboundReady({ production_inbound: row("ready") })).toBe(true);
    expect(isProductionInboundReady({ production_inbound: row("warning") })).toBe(true);
    expect(isProductionInboundReady({ production_inbound: row("blocked") })).toBe(false);
  });
});

describe("webhook", () => {
  async function pausedDelivery(projectId: string) {
    const eventId = newId("event");
    await app.db
      .insert(events)
      .values({ id: eventId, projectId, type: "message.received", payload: { text: "hi" }, deliver: true, route: "external", createdAt: app.clock.now() });
    const id = newId("webhookDelivery");
    await app.db.insert(webhookDeliveries).values({
      id,
      projectId,
      eventId,
      eventType: "message.received",
      status: "paused",
      attemptCount: 3,
      lastStatusCode: 503,
      lastError: null,
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
    });
    return id;
  }

  it("paused after 5 days of failures: a blocked WEBHOOK_PAUSED issue, gone after PATCH /projects/{id} resumes the endpoint", async () => {
    const seeded = await fresh("Paused");
    await addTesters(seeded.projectId);
    expect((await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: WEBHOOK_URL } })).status).toBe(200);
    const before = await readiness(seeded);
    expect(before.overall_status).toBe("sandbox_ready");
    expect(codes(before)).not.toContain("WEBHOOK_PAUSED");

    const pausedAt = new Date(app.clock.now().getTime() - 3600_000);
    await setProject(seeded.projectId, { webhookFailingSince: new Date(pausedAt.getTime() - PAUSE_AFTER_MS), webhookPausedAt: pausedAt });
    const deliveryId = await pausedDelivery(seeded.projectId);
    const paused = await readiness(seeded);
    expectWellFormed(paused);
    expect(paused.capabilities.webhook).toEqual({ status: "warning", message: `Webhook ${WEBHOOK_URL}: paused after 5 days of failures.` });
    expect(issueOf(paused, "WEBHOOK_PAUSED")).toEqual({
      code: "WEBHOOK_PAUSED",
      severity: "blocked",
      area: "webhook",
      title: "Webhook deliveries are paused",
      message: `Deliveries to ${WEBHOOK_URL} failed for 5 days, so the endpoint was paused at ${pausedAt.toISOString()} (last answer: HTTP 503). 1 delivery is waiting; nothing is sent until the webhook is updated.`,
      next_steps: [
        `Fix the endpoint, then update the webhook (PATCH /projects/${seeded.projectId}) to resume; deliveries that waited are sent then.`,
        "See what the endpoint answered: GET /webhook-deliveries?status=paused, then GET /webhook-deliveries/{id} for each attempt.",
      ],
    });
    // Paused, not merely failing: one issue, first, and the sandbox's inbound reaches nobody now.
    expect(codes(paused)).not.toContain("WEBHOOK_FAILING");
    expect(codes(paused)[0]).toBe("WEBHOOK_PAUSED");
    expect(paused.next_steps[0]).toContain("Fix the endpoint, then update the webhook");
    expect(paused).toMatchObject({ overall_status: "testable_with_blockers", sandbox_testable: true });

    const patched = await app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: WEBHOOK_URL } });
    expect(patched.status).toBe(200);
    const resumed = await readiness(seeded);
    expect(codes(resumed)).not.toContain("WEBHOOK_PAUSED");
    expect(resumed.capabilities.webhook.status).toBe("ready");
    expect(resumed.overall_status).toBe("sandbox_ready");
    const [delivery] = await app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    expect(delivery!.status).toBe("pending");
  });

  it("paused also blocks production inbound on a number that forwards to the webhook", async () => {
    const { seeded } = await readyProject("Paused live");
    await setProject(seeded.projectId, { webhookPausedAt: app.clock.now(), webhookFailingSince: new Date(app.clock.now().getTime() - PAUSE_AFTER_MS) });
    const body = await readiness(seeded);
    expect(body.capabilities.production_inbound).toEqual({ status: "blocked", message: "Production inbound does not work: the webhook is paused." });
    expect(body.production_inbound_ready).toBe(false);
    // The sandbox still sends to its tester: testable, with the paused webhook as the blocker.
    expect(body.overall_status).toBe("testable_with_blockers");
    expect(issueOf(body, "WEBHOOK_PAUSED").message).toContain("0 deliveries are waiting");
  });

  it("failing but not paused yet: WEBHOOK_FAILING warning with the pause deadline and the last answer", async () => {
    const { seeded } = await readyProject("Failing");
    const since = new Date(app.clock.now().getTime() - 2 * 24 * 3600_000);
    await setProject(seeded.projectId, { webhookFailingSince: since });
    await pausedDelivery(seeded.projectId).then((id) =>
      app.db.update(webhookDeliveries).set({ status: "pending", lastStatusCode: 500 }).where(eq(webhookDeliveries.id, id)),
    );
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(issueOf(body, "WEBHOOK_FAILING")).toMatchObject({ severity: "warning", area: "webhook" });
    expect(issueOf(body, "WEBHOOK_FAILING").message).toContain(`since ${since.toISOString()} has failed (last answer: HTTP 500)`);
    expect(issueOf(body, "WEBHOOK_FAILING").message).toContain(new Date(since.getTime() + PAUSE_AFTER_MS).toISOString());
    expect(body.capabilities.webhook.status).toBe("warning");
    // Still delivered (retried), so production inbound works, with a caveat.
    expect(body.capabilities.production_inbound.status).toBe("warning");
    expect(body.overall_status).toBe("ready_with_warnings");
  });

  it("signing off: WEBHOOK_SIGNING_DISABLED, cleared by rotating a secret in", async () => {
    const seeded = await fresh("Unsigned sandbox", { webhookUrl: WEBHOOK_URL, webhookSecretSealed: null });
    const body = await readiness(seeded);
    expect(issueOf(body, "WEBHOOK_SIGNING_DISABLED")).toMatchObject({
      severity: "warning",
      next_steps: [`Turn signing on: POST /projects/${seeded.projectId}/rotate-webhook-secret, then verify x-svc-signature on every delivery.`],
    });
    expect(body.capabilities.webhook.status).toBe("warning");
    expect((await app.call("POST", `/projects/${seeded.projectId}/rotate-webhook-secret`, { key: seeded.key })).status).toBe(200);
    expect(codes(await readiness(seeded))).not.toContain("WEBHOOK_SIGNING_DISABLED");
  });

  it.each(["FLOWS", "AGENT"] as const)("not_applicable for a %s project without a webhook_url", async (routingMode) => {
    const seeded = await fresh(`No hook ${routingMode}`, { routingMode });
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.capabilities.webhook.status).toBe("not_applicable");
    expect(body.issues.filter((i: any) => i.area === "webhook")).toEqual([]);
    expect(body.requirements).not.toContain("webhook_url");
    expect(body.sandbox_testable).toBe(true);
  });

  it("still judged for a FLOWS project that set one (events go there): paused is reported, the sandbox stays testable", async () => {
    const seeded = await fresh("Flows paused", { routingMode: "FLOWS", webhookUrl: WEBHOOK_URL, webhookPausedAt: app.clock.now() });
    const body = await readiness(seeded);
    expect(issueOf(body, "WEBHOOK_PAUSED").severity).toBe("blocked");
    expect(body.capabilities.webhook.status).toBe("warning");
    expect(body).toMatchObject({ sandbox_testable: true, overall_status: "sandbox_ready" });
  });
});

describe("production_inbound", () => {
  it("blocked without a number of its own (NO_DEDICATED_CHANNEL, info)", async () => {
    const body = await readiness(await fresh("No number", { webhookUrl: WEBHOOK_URL }));
    expect(body.capabilities.production_inbound.status).toBe("blocked");
    expect(issueOf(body, "NO_DEDICATED_CHANNEL")).toMatchObject({ severity: "info", area: "channel" });
  });

  it("blocked while the number is disconnected", async () => {
    const seeded = await fresh("Disconnected", { webhookUrl: WEBHOOK_URL });
    const channel = await connectA(seeded.key);
    await setChannel(channel.id, { ...VERIFIED, status: "disconnected" });
    const body = await readiness(seeded);
    expect(body.capabilities.production_inbound.status).toBe("blocked");
    expect(issueOf(body, "DEDICATED_CHANNEL_NOT_CONNECTED")).toMatchObject({ severity: "blocked", area: "channel", title: "Your number is disconnected" });
    expect(body.overall_status).toBe("testable_with_blockers");
    expect(body.effective_channel.id).toBe(SANDBOX_CHANNEL_ID);
  });

  it("blocked when the number routes NONE: one INBOUND_RECORD_ONLY issue, not a second routing warning", async () => {
    const seeded = await fresh("Record only", { webhookUrl: WEBHOOK_URL });
    const channel = await connectA(seeded.key, { routing_mode: "NONE" });
    await setChannel(channel.id, VERIFIED);
    const body = await readiness(seeded);
    expect(body.dedicated_channel.routing_warning).toMatch(/NONE/);
    expect(body.capabilities.production_inbound.status).toBe("blocked");
    expect(codes(body)).toEqual(["INBOUND_RECORD_ONLY", "NO_SANDBOX_TESTERS"]);
    expect(issueOf(body, "INBOUND_RECORD_ONLY")).toMatchObject({ severity: "blocked", area: "routing" });
    expect(body.overall_status).toBe("testable_with_blockers");
  });

  it("blocked when the number forwards to the webhook and there is none; the sandbox (FLOWS) stays testable", async () => {
    const seeded = await fresh("Channel external", { routingMode: "FLOWS" });
    const channel = await connectA(seeded.key, { routing_mode: "EXTERNAL" });
    await setChannel(channel.id, VERIFIED);
    await withAutomation(seeded.projectId);
    const body = await readiness(seeded);
    expect(body.capabilities.production_inbound.status).toBe("blocked");
    expect(body.capabilities.webhook.status).toBe("blocked");
    expect(codes(body)).not.toContain("ROUTING_WARNING");
    expect(issueOf(body, "WEBHOOK_URL_MISSING").next_steps).toContain(
      `Or route your channel ${channel.id} (+14155550100) to native automations: PATCH /channels/${channel.id} with {"routing_mode": "FLOWS"}.`,
    );
    expect(body).toMatchObject({ sandbox_testable: true, production_inbound_ready: false, overall_status: "testable_with_blockers" });
  });

  it("warning when it delivers but the channel has a routing_warning (FLOWS channel under an EXTERNAL project)", async () => {
    const seeded = await fresh("Mixed", { webhookUrl: WEBHOOK_URL });
    await addTesters(seeded.projectId);
    const channel = await connectA(seeded.key, { routing_mode: "FLOWS" });
    await setChannel(channel.id, VERIFIED);
    await withAutomation(seeded.projectId);
    const body = await readiness(seeded);
    expect(body.capabilities.production_inbound.status).toBe("warning");
    expect(body.production_inbound_ready).toBe(true);
    expect(issueOf(body, "ROUTING_WARNING")).toEqual({
      code: "ROUTING_WARNING",
      severity: "warning",
      area: "routing",
      title: `Check inbound routing on your channel ${channel.id} (+14155550100)`,
      message: body.dedicated_channel.routing_warning,
      next_steps: [
        'To keep native automations there, make sure an active automation matches every message that needs an answer (GET /automations; PATCH /automations/{id} with {"active": true}).',
        `To forward this channel's inbound to your webhook instead: PATCH /channels/${channel.id} with {"routing_mode": "EXTERNAL"}.`,
      ],
    });
    expect(body.overall_status).toBe("ready_with_warnings");
  });

  it("an AGENT project leaves a number with its own routing alone; a number that follows it goes to the agent, with a warning until its agent is ACTIVE", async () => {
    const { seeded, channel } = await readyProject("Agent");
    const webhookReady = { status: "ready", message: expect.stringContaining(`your webhook ${WEBHOOK_URL}`) };
    expect((await readiness(seeded)).capabilities.production_inbound).toEqual(webhookReady);
    await setProject(seeded.projectId, { routingMode: "AGENT" });
    // The number's own EXTERNAL overrides the project's AGENT (issue 32 item 5).
    expect((await readiness(seeded)).capabilities.production_inbound).toEqual(webhookReady);

    await setChannel(channel.id, { routingMode: null });
    const following = await readiness(seeded);
    expect(following.capabilities.production_inbound.status).toBe("warning");
    expect(following.capabilities.production_inbound.message).toContain("the business agent");
    expect(following.dedicated_channel.routing_warning).toMatch(/routes AGENT .* no ACTIVE business agent/);
    // The sandbox routes AGENT too, without an agent of its own: both say so.
    expect(codes(following)).toEqual(["ROUTING_WARNING", "ROUTING_WARNING"]);

    await app.db.insert(businessAgents).values({
      id: newId("businessAgent"),
      projectId: seeded.projectId,
      channelId: channel.id,
      status: "ACTIVE",
      settings: {},
      skills: [],
      createdAt: app.clock.now(),
      updatedAt: app.clock.now(),
    });
    const answered = await readiness(seeded);
    expect(answered.capabilities.production_inbound).toEqual({ status: "ready", message: expect.stringContaining("goes to the business agent") });
    expect(answered.issues.map((i: any) => i.title)).toEqual([expect.stringContaining("shared sandbox")]);
  });
});

describe("flows_publishing and templates", () => {
  it("on the sandbox: Flows testable, templates blocked (SANDBOX_TEMPLATES_NOT_SUPPORTED, info)", async () => {
    const body = await readiness(await fresh("Sandbox publish", { webhookUrl: WEBHOOK_URL }));
    expect(body.capabilities.flows_publishing.status).toBe("testable");
    expect(body.capabilities.templates.status).toBe("blocked");
    expect(issueOf(body, "SANDBOX_TEMPLATES_NOT_SUPPORTED")).toMatchObject({ severity: "info", area: "publishing", title: "Templates need your own number" });
  });

  it("a number the provider has not connected: both blocked, PHONE_NOT_CONNECTED and the others as friendly issues", async () => {
    const seeded = await fresh("Phone pending", { webhookUrl: WEBHOOK_URL });
    const channel = await connectA(seeded.key);
    await setChannel(channel.id, { ...VERIFIED, phoneNumberStatus: "PENDING", paymentStatus: "none" });
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.effective_channel.publish_readiness.blockers).toEqual(["PHONE_NOT_CONNECTED", "NO_PAYMENT_METHOD"]);
    expect(body.capabilities.flows_publishing).toEqual({ status: "blocked", message: expect.stringContaining("PHONE_NOT_CONNECTED") });
    expect(body.capabilities.templates).toEqual({ status: "blocked", message: expect.stringContaining("NO_PAYMENT_METHOD") });
    expect(issueOf(body, "PHONE_NOT_CONNECTED")).toMatchObject({
      severity: "blocked",
      area: "publishing",
      title: "The phone number is not connected at the provider",
    });
    expect(issueOf(body, "PHONE_NOT_CONNECTED").message).toContain("publish Flows or submit templates");
    expect(issueOf(body, "NO_PAYMENT_METHOD")).toMatchObject({
      title: "No payment method",
      next_steps: ["Add a payment method to the business account in the provider's business manager."],
    });
    expect(issueOf(body, "NO_PAYMENT_METHOD").message).toContain("you cannot submit templates");
    expect(body.overall_status).toBe("testable_with_blockers");
  });

  it("not_applicable when the effective channel is not PLATFORM_A", async () => {
    const seeded = await fresh("Photo app", { webhookUrl: WEBHOOK_URL });
    await app.db.update(organizations).set({ platformBEnabled: true }).where(eq(organizations.id, seeded.orgId));
    forgetAuthenticatedKeys();
    const res = await app.call("POST", "/channels", {
      key: seeded.key,
      body: { platform: "PLATFORM_B", display_name: "Insta", credentials: { account_id: providerId("ig"), access_token: "IGQV-x" } },
    });
    expect(res.status).toBe(200);
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.effective_channel.platform).toBe("PLATFORM_B");
    expect(body.capabilities.flows_publishing.status).toBe("not_applicable");
    expect(body.capabilities.templates.status).toBe("not_applicable");
    expect(body.requirements).not.toContain("flows_publishing");
    expect(body.issues.filter((i: any) => i.area === "publishing")).toEqual([]);
  });
});

describe("assessReadiness (cases the API cannot set up)", () => {
  async function factsOf(seeded: Seeded): Promise<ReadinessFacts> {
    const [project] = await app.db.select().from(projects).where(eq(projects.id, seeded.projectId));
    return loadReadinessFacts(
      { ...app.systemCtx(), db: app.db, project: project!, org: {} as never, plan: {} as never, actor: { type: "system" }, now: app.clock.now() },
      project!,
    );
  }

  it("the shared sandbox down: SANDBOX_UNAVAILABLE blocks testing", async () => {
    const seeded = await fresh("Sandbox down", { webhookUrl: WEBHOOK_URL });
    const facts = await factsOf(seeded);
    const body = assessReadiness({ ...facts, sandbox: { ...facts.sandbox, row: { ...facts.sandbox.row, status: "error" } } });
    expect(body.capabilities.sandbox_messaging.status).toBe("blocked");
    expect(body.issues[0]).toMatchObject({ code: "SANDBOX_UNAVAILABLE", severity: "blocked" });
    expect(body).toMatchObject({ sandbox_testable: false, overall_status: "blocked" });
  });

  it("a number whose inbound goes to another project: DEDICATED_CHANNEL_NOT_LINKED", async () => {
    const { seeded } = await readyProject("Unlinked");
    const facts = await factsOf(seeded);
    const body = assessReadiness({ ...facts, dedicated: { ...facts.dedicated!, linked: false } });
    expect(body.capabilities.production_inbound.status).toBe("blocked");
    expect(codes(body)).toEqual(["DEDICATED_CHANNEL_NOT_LINKED"]);
    expect(body.overall_status).toBe("testable_with_blockers");
  });

  it("channel_id naming no channel: DEDICATED_CHANNEL_MISSING", async () => {
    const seeded = await fresh("Dangling", { webhookUrl: WEBHOOK_URL, channelId: "ch_00000000000000000000000000" });
    const body = await readiness(seeded);
    expectWellFormed(body);
    expect(body.dedicated_channel).toBeNull();
    expect(body.effective_channel.id).toBe(SANDBOX_CHANNEL_ID);
    expect(issueOf(body, "DEDICATED_CHANNEL_MISSING")).toMatchObject({ severity: "blocked", area: "channel" });
    expect(body.overall_status).toBe("testable_with_blockers");
  });

  it("every sandbox seat taken: SANDBOX_TESTER_LIMIT_REACHED (info)", async () => {
    const seeded = await fresh("Full", { webhookUrl: WEBHOOK_URL });
    const facts = await factsOf(seeded);
    const body = assessReadiness({ ...facts, participantCount: facts.participantCap });
    expect(body.capabilities.sandbox_messaging.status).toBe("testable");
    expect(issueOf(body, "SANDBOX_TESTER_LIMIT_REACHED")).toMatchObject({ severity: "info", area: "sandbox" });
  });
});
