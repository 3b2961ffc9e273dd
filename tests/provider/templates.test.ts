import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifySignature } from "@/lib/ports/provider/app-secret";
import { createProviderPort } from "@/lib/ports/provider";
import { ProviderError, type ProviderAccount, type ProviderPlatform, type ProviderTemplateSubmission } from "@/lib/ports/provider/types";
import { createSimulator, type Simulator } from "@/lib/simulator";
import { serveSimulator, startReceiver, type Receiver, type ReceivedRequest, type RunningServer } from "./http-helpers";

/**
 * The provider port's message templates API against the simulator over real HTTP; the simulator's
 * signed `message_template_status_update` webhooks land on a receiver server. The review delay is 0
 * here: these tests are about the calls, tests/simulator/templates.test.ts about the review's timing.
 */
const SECRET = (platform: ProviderPlatform) => `test-secret-${platform}`;
const ACCOUNT: ProviderAccount = { businessAccountId: "102290129340398", phoneNumberId: "106540352242922", accessToken: "EAAG-test" };

let receiver: Receiver;
let server: RunningServer;
let simulator: Simulator;
let names = 0;

const templates = () => createProviderPort({ graphUrl: `${server.url}/api/simulator/graph` }).templates;

function submission(overrides: Partial<ProviderTemplateSubmission> = {}): ProviderTemplateSubmission {
  return {
    name: `appointment_reminder_${++names}`,
    language: "en_US",
    category: "UTILITY",
    components: [
      { type: "BODY", text: "Hi {{1}}, see you on {{2}}.", example: { body_text: [["Ana", "Monday"]] } },
      { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Confirm" }] },
    ],
    ...overrides,
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected the call to fail");
}

/** A Graph stand-in for answers the simulator never gives (2xx bodies that break the contract). */
function answering(body: unknown): typeof fetch {
  return (async () => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } })) as unknown as typeof fetch;
}

const oddPort = (body: unknown) => createProviderPort({ graphUrl: "https://graph.example/v23.0", fetch: answering(body) }).templates;

beforeAll(async () => {
  receiver = await startReceiver();
  simulator = createSimulator({ callbackBaseUrl: receiver.url, appSecret: SECRET, templateReviewMs: 0, log: () => {} });
  server = await serveSimulator(simulator);
});

afterEach(() => {
  simulator.reset();
  receiver.received.length = 0;
});

afterAll(async () => {
  simulator.reset();
  await server.close();
  await receiver.close();
});

describe("templates.submit", () => {
  it("submits the template as sent and returns the provider's id, PENDING and the category; the review comes on the webhook", async () => {
    const input = submission({ parameter_format: "POSITIONAL" });
    const submitted = await templates().submit(ACCOUNT, input);
    expect(submitted).toEqual({ id: expect.stringMatching(/^\d{16}$/), status: "PENDING", category: "UTILITY" });
    expect(simulator.state.templates.get(submitted.id)).toMatchObject({
      business_account_id: ACCOUNT.businessAccountId,
      name: input.name,
      language: "en_US",
      category: "UTILITY",
      parameter_format: "POSITIONAL",
      components: input.components,
    });

    const isApproval = (r: ReceivedRequest) => JSON.stringify(r.json).includes(`"message_template_id":${submitted.id}`);
    const [webhook] = await receiver.waitFor(isApproval);
    expect(verifySignature(SECRET("PLATFORM_A"), webhook!.raw, String(webhook!.headers["x-hub-signature-256"]))).toBe(true);
    expect(webhook!.json).toMatchObject({
      entry: [{ id: ACCOUNT.businessAccountId, changes: [{ field: "message_template_status_update", value: { event: "APPROVED", reason: "NONE" } }] }],
    });
  });

  it("leaves parameter_format out when the template has none", async () => {
    const submitted = await templates().submit(ACCOUNT, submission());
    expect(simulator.state.templates.get(submitted.id)?.parameter_format).toBeNull();
  });

  it("throws the provider's duplicate refusal (100 / 2388024) as a final ProviderError", async () => {
    const input = submission();
    await templates().submit(ACCOUNT, input);
    const error = await failureOf(templates().submit(ACCOUNT, input));
    expect(error.retryable).toBe(false);
    expect(error.failure).toMatchObject({
      provider: "provider",
      code: 100,
      subcode: 2388024,
      title: "Content in this language already exists",
      http_status: 400,
      fbtrace_id: expect.any(String),
    });
    expect(error.failure.summary).toContain("already has content in en_US");
  });

  it("throws the provider's invalid parameter refusal with its details", async () => {
    const error = await failureOf(templates().submit(ACCOUNT, submission({ name: "Not Valid" })));
    expect(error.failure).toMatchObject({ code: 100, http_status: 400 });
    expect(error.failure.summary).toContain("Param name");
    expect(error.retryable).toBe(false);
  });

  it("refuses a 2xx answer without id or status as invalid_response", async () => {
    const error = await failureOf(oddPort({ success: true }).submit(ACCOUNT, submission()));
    expect(error.failure).toMatchObject({ code: "invalid_response", http_status: 200 });
    expect(error.retryable).toBe(false);
  });
});

describe("templates.remove", () => {
  it("deletes that one template (hsm_id) and keeps the name's other language", async () => {
    const input = submission();
    const english = await templates().submit(ACCOUNT, input);
    const spanish = await templates().submit(ACCOUNT, { ...input, language: "es" });
    await templates().remove(ACCOUNT, { name: input.name, metaTemplateId: english.id });
    expect(simulator.state.templates.has(english.id)).toBe(false);
    expect(simulator.state.templates.has(spanish.id)).toBe(true);
  });

  it("throws the provider's refusal for a template it does not have", async () => {
    const input = submission();
    const submitted = await templates().submit(ACCOUNT, input);
    await templates().remove(ACCOUNT, { name: input.name, metaTemplateId: submitted.id });
    const error = await failureOf(templates().remove(ACCOUNT, { name: input.name, metaTemplateId: submitted.id }));
    expect(error.failure).toMatchObject({ code: 100, http_status: 400 });
  });

  it("refuses a 2xx answer that does not confirm the deletion", async () => {
    const error = await failureOf(oddPort({ success: false }).remove(ACCOUNT, { name: "x", metaTemplateId: "1" }));
    expect(error.failure).toMatchObject({ code: "invalid_response" });
  });
});
