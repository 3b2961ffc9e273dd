import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels, projects } from "@/lib/db/schema";
import { createTestApp, type TestApp } from "./support/app";
import { insertAutomation } from "./automations/support";
import { forgetAuthenticatedKeys } from "@/lib/domain/keys";

/**
 * Readiness for channels whose inbound the project receives besides its channel_id (a second number
 * the project connected): the checks judge their paths too (lib/domain/readiness/scope.ts others).
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const WEBHOOK_URL = "https://hooks.example.com/svc";
const PHONE = "+14155550100";
let serial = 0;

/** A fresh project with two PLATFORM_A numbers: the first becomes channel_id, the second is "other". */
async function twoNumbers(name: string, values: Partial<typeof projects.$inferInsert>) {
  const seeded = await app.seed({ orgName: `${name} org`, projectName: name });
  await app.db.update(projects).set(values).where(eq(projects.id, seeded.projectId));
  forgetAuthenticatedKeys();
  const connect = async () => {
    serial += 1;
    const credentials = { phone_number_id: `pn${Date.now().toString(36)}${serial}`, business_account_id: `waba${serial}`, access_token: `EAAG-tok${serial}` };
    const res = await app.call("POST", "/channels", { key: seeded.key, body: { platform: "PLATFORM_A", phone_number: PHONE, credentials } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { id: string }).id;
  };
  const dedicated = await connect();
  const other = await connect();
  return { seeded, dedicated, other };
}

async function setRouting(id: string, routingMode: "NONE" | "FLOWS" | "EXTERNAL") {
  await app.db.update(channels).set({ routingMode }).where(eq(channels.id, id));
}

async function readiness(seeded: { key: string; projectId: string }) {
  const res = await app.call("GET", `/projects/${seeded.projectId}/readiness`, { key: seeded.key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe("readiness of the project's other channels", () => {
  it("an other channel forwarding to a missing webhook is named in WEBHOOK_URL_MISSING with the sandbox", async () => {
    const { seeded, dedicated, other } = await twoNumbers("Two numbers", { webhookUrl: null });
    await setRouting(dedicated, "FLOWS");
    await insertAutomation(app, seeded.projectId, { key: "any", name: "Any", trigger: { type: "ANY_MESSAGE" }, steps: [{ send_reply: { text: "hi" } }] });
    const body = await readiness(seeded);
    expect(body.dedicated_channel.id).toBe(dedicated);
    const missing = body.issues.find((i: any) => i.code === "WEBHOOK_URL_MISSING");
    expect(missing.message).toBe(
      `Inbound on the shared sandbox (${body.sandbox_channel.phone_number}) and your channel ${other} (${PHONE}) is forwarded to your webhook (routing_mode EXTERNAL), but the project has no webhook_url: messages are recorded and delivered nowhere.`,
    );
    // The dedicated number routes FLOWS, so only the sandbox's step is offered besides setting the URL.
    expect(missing.next_steps).toEqual([
      `Set your endpoint: PATCH /projects/${seeded.projectId} with {"webhook_url": "https://your-app.example.com/webhooks/svc"}.`,
      `Or handle inbound with native automations instead: PATCH /projects/${seeded.projectId} with {"routing_mode": "FLOWS"}.`,
    ]);
    expect(body.capabilities.webhook.status).toBe("blocked");
    expect(body.capabilities.production_inbound).toEqual({
      status: "ready",
      message: `Inbound on your channel ${dedicated} (${PHONE}) goes to native automations.`,
    });
    expect(body.overall_status).toBe("testable_with_blockers");
  });

  it("NONE on an other channel is a ROUTING_WARNING (only the dedicated channel's NONE has its own issue)", async () => {
    const { seeded, other } = await twoNumbers("Other none", { webhookUrl: WEBHOOK_URL });
    await setRouting(other, "NONE");
    const body = await readiness(seeded);
    expect(body.issues.filter((i: any) => i.code === "ROUTING_WARNING")).toEqual([
      {
        code: "ROUTING_WARNING",
        severity: "warning",
        area: "routing",
        title: `Check inbound routing on your channel ${other} (${PHONE})`,
        message: "This channel routes NONE. Inbound messages are recorded only: they are not forwarded to your webhook and nothing answers them.",
        next_steps: [
          `Review the channel's routing: GET /channels/${other} explains routing_warning; change it with PATCH /channels/${other} or PATCH /projects/${seeded.projectId}.`,
        ],
      },
    ]);
    expect(body.issues.map((i: any) => i.code)).not.toContain("INBOUND_RECORD_ONLY");
  });

  it("numbers connected under an AGENT project follow it: no webhook needed, and each warns with the agent step until its agent is ACTIVE", async () => {
    const { seeded, dedicated, other } = await twoNumbers("Agent two", { routingMode: "AGENT", webhookUrl: null });
    const body = await readiness(seeded);
    expect(body.capabilities.webhook.status).toBe("not_applicable");
    expect(body.requirements).not.toContain("webhook_url");
    const warnings = body.issues.filter((i: any) => i.code === "ROUTING_WARNING");
    expect(warnings.map((w: any) => w.title)).toEqual([
      `Check inbound routing on the shared sandbox (${body.sandbox_channel.phone_number})`,
      `Check inbound routing on your channel ${dedicated} (${PHONE})`,
      `Check inbound routing on your channel ${other} (${PHONE})`,
    ]);
    for (const [warning, id] of [
      [warnings[1], dedicated],
      [warnings[2], other],
    ] as const) {
      expect(warning.next_steps).toEqual([
        `To have the business agent answer there, turn it on for the channel: POST /business-agents with {"channel_id": "${id}", "enabled": true}.`,
        `To forward this channel's inbound to your webhook instead: PATCH /channels/${id} with {"routing_mode": "EXTERNAL"}.`,
      ]);
    }
  });

  it("under an AGENT project a number with its own EXTERNAL routing forwards to the webhook, which it then needs", async () => {
    const { seeded, other } = await twoNumbers("Agent own", { routingMode: "AGENT", webhookUrl: null });
    await setRouting(other, "EXTERNAL");
    const body = await readiness(seeded);
    expect(body.capabilities.webhook.status).toBe("blocked");
    expect(body.issues.find((i: any) => i.code === "WEBHOOK_URL_MISSING").message).toContain(`your channel ${other}`);
  });
});
