import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { DEFAULT_TEMPLATE_REVIEW_MS, templateReviewDelayMs } from "@/lib/simulator/templates-review";
import { startReceiver, type Receiver, type ReceivedRequest } from "../provider/http-helpers";

/**
 * The simulator's message templates API and review through handle(), as the app serves them under
 * /api/simulator. The review waits on the simulator's timer (setTimeout), which these tests move with
 * vitest's fake timers; the signed webhooks land on a real receiver.
 */
const WABA = "102290129340398";
const OTHER_WABA = "102290129340399";
const AUTH = { Authorization: "Bearer EAAG-test" };
const SECRET = (platform: ProviderPlatform) => `secret-${platform}`;
const REVIEW_MS = 5_000;

type Json = Record<string, unknown>;

let receiver: Receiver;
let simulator: Simulator;
let names = 0;

async function call(simulatorUnderTest: Simulator, method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await simulatorUnderTest.handle(new Request(`http://sim.test/api/simulator${path}`, init), path.split("?")[0]!);
  return { status: response.status, json: (await response.json()) as Json };
}

const sim = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(simulator, method, path, body, headers);

function template(overrides: Json = {}): Json {
  return {
    name: `order_update_${++names}`,
    language: "en_US",
    category: "UTILITY",
    components: [
      { type: "HEADER", format: "TEXT", text: "Your order" },
      { type: "BODY", text: "Hello {{1}}, your order {{2}} has shipped.", example: { body_text: [["Ana", "A-1"]] } },
      { type: "FOOTER", text: "Thanks for shopping" },
    ],
    ...overrides,
  };
}

const body = (text: string): Json => template({ components: [{ type: "BODY", text, example: { body_text: [["Ana"]] } }] });

async function submit(input: Json = template()): Promise<string> {
  const created = await sim("POST", `/graph/${WABA}/message_templates`, input);
  expect(created.status).toBe(200);
  return created.json.id as string;
}

async function statusOf(id: string): Promise<unknown> {
  return (await sim("GET", `/graph/${id}?fields=status`)).json.status;
}

const templateChange = (r: ReceivedRequest): Json | null => {
  const change = (((r.json as Json).entry as Json[] | undefined)?.[0]?.changes as Json[] | undefined)?.[0];
  return change?.field === "message_template_status_update" ? (change.value as Json) : null;
};
const webhookFor = (id: string, event: string) => (r: ReceivedRequest) =>
  templateChange(r)?.message_template_id === Number(id) && templateChange(r)?.event === event;

/** Fakes only the timer the simulator waits on; the receiver's HTTP keeps real time. */
function fakeTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, templateReviewMs: REVIEW_MS, log: () => {} });
});

afterEach(() => {
  vi.useRealTimers();
  simulator.reset();
  receiver.received.length = 0;
});

afterAll(async () => {
  simulator.reset();
  await receiver.close();
});

describe("POST /graph/{waba_id}/message_templates", () => {
  it("stores the template PENDING and answers {id, status, category}; GET /graph/{id} reads it back", async () => {
    const input = template({ parameter_format: "POSITIONAL" });
    const created = await sim("POST", `/graph/${WABA}/message_templates`, input);
    expect(created).toEqual({ status: 200, json: { id: expect.stringMatching(/^1\d{15}$/), status: "PENDING", category: "UTILITY" } });
    const id = created.json.id as string;
    expect(Number.isSafeInteger(Number(id))).toBe(true);

    const read = await sim("GET", `/graph/${id}`);
    expect(read).toEqual({
      status: 200,
      json: { id, name: input.name, language: "en_US", status: "PENDING", category: "UTILITY", components: input.components },
    });
    expect((await sim("GET", `/graph/${id}?fields=status,rejected_reason,parameter_format`)).json).toEqual({
      id,
      status: "PENDING",
      rejected_reason: "NONE",
      parameter_format: "POSITIONAL",
    });
  });

  it.each<[string, Json]>([
    ["a name with capitals", { name: "Order_Update" }],
    ["a name with spaces", { name: "order update" }],
    ["a name over 512 characters", { name: "a".repeat(513) }],
    ["a language that is no code", { language: "en-US" }],
    ["a missing language", { language: undefined }],
    ["an unknown category", { category: "TRANSACTIONAL" }],
    ["an unknown parameter_format", { parameter_format: "MIXED" }],
    ["no components", { components: [] }],
    ["no BODY", { components: [{ type: "FOOTER", text: "Thanks" }] }],
    [
      "two BODY components",
      {
        components: [
          { type: "BODY", text: "One" },
          { type: "body", text: "Two" },
        ],
      },
    ],
    [
      "an unknown component type",
      {
        components: [
          { type: "BODY", text: "Hi" },
          { type: "CAPTION", text: "x" },
        ],
      },
    ],
    ["a BODY without text", { components: [{ type: "BODY" }] }],
    ["a BODY over 1024 characters", { components: [{ type: "BODY", text: "b".repeat(1025) }] }],
  ])("refuses %s with the provider's invalid parameter error", async (_, overrides) => {
    const refused = await sim("POST", `/graph/${WABA}/message_templates`, template(overrides));
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 100, error_data: { messaging_product: "whatsapp", details: expect.stringMatching(/Param|BODY/) } });
    expect(simulator.state.templates.size).toBe(0);
  });

  it("takes an AUTHENTICATION body without text (the provider's preset)", async () => {
    const input = template({ category: "AUTHENTICATION", components: [{ type: "BODY", add_security_recommendation: true }] });
    expect((await sim("POST", `/graph/${WABA}/message_templates`, input)).json).toMatchObject({ status: "PENDING", category: "AUTHENTICATION" });
  });

  it("refuses the same name and language twice under one account with 100 / 2388024, and takes another language or account", async () => {
    const input = template();
    await submit(input);
    const duplicate = await sim("POST", `/graph/${WABA}/message_templates`, input);
    expect(duplicate.status).toBe(400);
    expect(duplicate.json.error).toMatchObject({
      code: 100,
      error_subcode: 2388024,
      error_user_title: "Content in this language already exists",
      fbtrace_id: expect.any(String),
    });
    expect((await sim("POST", `/graph/${WABA}/message_templates`, { ...input, language: "pt_BR" })).status).toBe(200);
    expect((await sim("POST", `/graph/${OTHER_WABA}/message_templates`, input)).status).toBe(200);
    expect(simulator.state.templates.size).toBe(3);
  });

  it("needs an access token (190)", async () => {
    const refused = await sim("POST", `/graph/${WABA}/message_templates`, template(), {});
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatchObject({ code: 190 });
  });
});

describe("the timed review", () => {
  it("approves after the review delay, not before, and announces it on the signed message_template_status_update webhook", async () => {
    fakeTimers();
    const input = template();
    const id = await submit(input);
    await vi.advanceTimersByTimeAsync(REVIEW_MS - 1);
    expect(await statusOf(id)).toBe("PENDING");
    await vi.advanceTimersByTimeAsync(1);
    expect(await statusOf(id)).toBe("APPROVED");
    vi.useRealTimers();

    const [webhook] = await receiver.waitFor(webhookFor(id, "APPROVED"));
    expect(webhook!.path).toBe("/api/providers/platform-a/webhook");
    expect(verifySignature(SECRET("PLATFORM_A"), webhook!.raw, String(webhook!.headers["x-hub-signature-256"]))).toBe(true);
    expect(webhook!.json).toEqual({
      object: "whatsapp_business_account",
      entry: [
        {
          id: WABA,
          time: expect.any(Number),
          changes: [
            {
              field: "message_template_status_update",
              value: {
                event: "APPROVED",
                message_template_id: Number(id),
                message_template_name: input.name,
                message_template_language: "en_US",
                reason: "NONE",
                message_template_category: "UTILITY",
              },
            },
          ],
        },
      ],
    });
  });

  it.each([
    ["starts with a positional variable", "{{1}}, your order has shipped."],
    ["ends with a positional variable", "Your order has shipped, {{1}}"],
    ["ends with a variable before trailing spaces", "Your order has shipped, {{1}}  "],
    ["starts with a named variable", "{{first_name}} your order has shipped."],
  ])("rejects a body that %s as INVALID_FORMAT, with rejection_info", async (_, text) => {
    fakeTimers();
    const id = await submit(body(text));
    await vi.advanceTimersByTimeAsync(REVIEW_MS);
    expect((await sim("GET", `/graph/${id}?fields=status,rejected_reason`)).json).toEqual({ id, status: "REJECTED", rejected_reason: "INVALID_FORMAT" });
    vi.useRealTimers();

    const [webhook] = await receiver.waitFor(webhookFor(id, "REJECTED"));
    expect(templateChange(webhook!)).toMatchObject({
      reason: "INVALID_FORMAT",
      rejection_info: { reason: expect.stringContaining("starts or ends with a variable"), recommendation: expect.any(String) },
    });
  });

  it("waits 2000 ms when the simulator is given no delay", async () => {
    fakeTimers();
    const plain = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, log: () => {} });
    try {
      const created = await call(plain, "POST", `/graph/${WABA}/message_templates`, template());
      const id = created.json.id as string;
      await vi.advanceTimersByTimeAsync(DEFAULT_TEMPLATE_REVIEW_MS - 1);
      expect(plain.state.templates.get(id)?.status).toBe("PENDING");
      await vi.advanceTimersByTimeAsync(1);
      expect(plain.state.templates.get(id)?.status).toBe("APPROVED");
    } finally {
      plain.reset();
    }
  });

  it("leaves a result forced before the delay alone", async () => {
    fakeTimers();
    const id = await submit();
    expect((await sim("POST", `/templates/${id}/review`, { status: "REJECTED", reason: "PROMOTIONAL" })).status).toBe(200);
    await vi.advanceTimersByTimeAsync(REVIEW_MS);
    expect((await sim("GET", `/graph/${id}?fields=status,rejected_reason`)).json).toEqual({ id, status: "REJECTED", rejected_reason: "PROMOTIONAL" });
  });
});

describe("templateReviewDelayMs (SVC_SIMULATOR_TEMPLATE_REVIEW_MS)", () => {
  it.each<[string | undefined, number]>([
    [undefined, 2000],
    ["", 2000],
    ["0", 0],
    [" 150 ", 150],
    ["-5", 2000],
    ["1.5", 2000],
    ["soon", 2000],
  ])("reads %j as %i ms", (raw, expected) => {
    expect(templateReviewDelayMs(raw)).toBe(expected);
  });
});

describe("POST /templates/{meta_template_id}/review", () => {
  it.each<[string, string | undefined, string, Json]>([
    ["APPROVED", undefined, "NONE", {}],
    ["REJECTED", "PROMOTIONAL", "PROMOTIONAL", {}],
    ["REJECTED", undefined, "INVALID_FORMAT", { rejection_info: { reason: expect.any(String), recommendation: expect.any(String) } }],
    ["PAUSED", undefined, "NONE", { other_info: { title: "FIRST_PAUSE", description: expect.any(String) } }],
    ["DISABLED", undefined, "NONE", { disable_info: { disable_date: expect.any(Number) } }],
  ])("forces %s (reason %s) and delivers the webhook once", async (status, reason, sentReason, extra) => {
    const id = await submit();
    const forced = await sim("POST", `/templates/${id}/review`, reason ? { status, reason } : { status });
    expect(forced).toEqual({ status: 200, json: { id, old_status: "PENDING", new_status: status, reason: sentReason, delivered_status: 200 } });
    expect(await statusOf(id)).toBe(status);

    const [webhook] = await receiver.waitFor(webhookFor(id, status));
    expect(verifySignature(SECRET("PLATFORM_A"), webhook!.raw, String(webhook!.headers["x-hub-signature-256"]))).toBe(true);
    const value = templateChange(webhook!)!;
    expect(value).toEqual({
      event: status,
      message_template_id: Number(id),
      message_template_name: expect.stringMatching(/^order_update_/),
      message_template_language: "en_US",
      reason: sentReason,
      message_template_category: "UTILITY",
      ...extra,
    });
  });

  it("moves an approved template on (APPROVED → PAUSED → APPROVED)", async () => {
    const id = await submit();
    await sim("POST", `/templates/${id}/review`, { status: "APPROVED" });
    expect((await sim("POST", `/templates/${id}/review`, { status: "PAUSED" })).json).toMatchObject({ old_status: "APPROVED", new_status: "PAUSED" });
    expect((await sim("POST", `/templates/${id}/review`, { status: "APPROVED" })).json).toMatchObject({ old_status: "PAUSED", new_status: "APPROVED" });
  });

  it.each<[string, Json, number]>([
    ["an unknown status", { status: "PENDING" }, 400],
    ["a blank reason", { status: "REJECTED", reason: " " }, 400],
    ["the status it already has", { status: "APPROVED" }, 409],
  ])("refuses %s", async (_, request, expected) => {
    const id = await submit();
    if (expected === 409) await sim("POST", `/templates/${id}/review`, { status: "APPROVED" });
    const refused = await sim("POST", `/templates/${id}/review`, request);
    expect(refused.status).toBe(expected);
    expect(refused.json).toEqual({ error: { message: expect.any(String) } });
  });

  it("answers 404 for a template the provider never saw", async () => {
    expect((await sim("POST", "/templates/1999999999999999/review", { status: "APPROVED" })).status).toBe(404);
  });
});

describe("DELETE /graph/{waba_id}/message_templates", () => {
  it("deletes the one template named by hsm_id and keeps its other language", async () => {
    const input = template();
    const english = await submit(input);
    const portuguese = await submit({ ...input, language: "pt_BR" });
    const deleted = await sim("DELETE", `/graph/${WABA}/message_templates?name=${input.name as string}&hsm_id=${english}`);
    expect(deleted).toEqual({ status: 200, json: { success: true } });
    expect(simulator.state.templates.has(english)).toBe(false);
    expect(simulator.state.templates.has(portuguese)).toBe(true);
    expect((await sim("GET", `/graph/${english}`)).status).toBe(400);
    // The name and language are free again.
    expect((await sim("POST", `/graph/${WABA}/message_templates`, input)).status).toBe(200);
  });

  it("deletes every language of the name without hsm_id", async () => {
    const input = template();
    await submit(input);
    await submit({ ...input, language: "es" });
    expect((await sim("DELETE", `/graph/${WABA}/message_templates?name=${input.name as string}`)).status).toBe(200);
    expect(simulator.state.templates.size).toBe(0);
  });

  it.each<[string, (name: string, id: string) => string]>([
    ["no name", () => ""],
    ["a name unknown in the account", () => "name=nothing_here"],
    ["an hsm_id of another name", (_, id) => `name=other_name&hsm_id=${id}`],
  ])("refuses %s with 100", async (_, query) => {
    const input = template();
    const id = await submit(input);
    const refused = await sim("DELETE", `/graph/${WABA}/message_templates?${query(input.name as string, id)}`);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: 100 });
    expect(simulator.state.templates.has(id)).toBe(true);
  });
});
