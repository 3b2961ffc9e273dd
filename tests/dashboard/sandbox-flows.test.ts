import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { createFlow, publish, submissionsOf, tester, VALID_RESPONSE } from "../flows/support";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { addOperator, dash, type Operator } from "./support";

/**
 * The sandbox phone's Flow operations (lib/dashboard/routes/sandbox-phone.ts): a flow published and
 * sent through the real API and the simulator over HTTP, then opened and submitted as the tester.
 */
let h: Harness;
let acme: Seeded;
let dev: Operator;
let base: string;
/** The published sign-up flow: our id and the provider's. */
let flow: { id: string; metaFlowId: string };
/** The business's data URL for DATA_EXCHANGE flows. */
let receiver: Receiver;
let phones = 0;
/** A tester per test: sends to one number are paced (one per 6 s per pair). */
const nextPhone = () => `1555321${String(++phones).padStart(4, "0")}`;

beforeAll(async () => {
  // publicUrlIsServer: a DATA_EXCHANGE flow's endpoint_uri must reach this test's server.
  h = await startHarness({ settings: { sandboxParticipantCap: 100 }, publicUrlIsServer: true, statusDelaysMs: { sent: 5, delivered: 10, read: 15 } });
  receiver = await startReceiver();
  acme = await h.app.seed({ orgName: "Acme" });
  dev = await addOperator(h.app, acme, "developer");
  base = `/projects/${acme.projectId}`;
  const created = await createFlow(h, acme.key);
  const published = await publish(h, acme.key, created.id);
  flow = { id: created.id, metaFlowId: published.meta_flow_id };
}, 30_000);
afterAll(async () => {
  await receiver.close();
  await h.close();
});

/** A tester of the project who received the sign-up flow: their number, conversation and the flow_token. */
async function testerWithFlow(key = acme.key, seeded = acme, flowId = flow.id) {
  const phone = nextPhone();
  const conversationId = await tester(h, seeded, phone);
  const sent = await h.app.call("POST", "/flows/send", {
    key,
    body: { channel_id: SANDBOX_CHANNEL_ID, flow_id: flowId, conversation_id: conversationId, body_text: "Sign up with us", flow_cta: "Sign up" },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await h.settle(20);
  return { from: `+${phone}`, conversationId, flowToken: sent.body.flow_token as string };
}

const customer = (from: string) => `channel_id=${SANDBOX_CHANNEL_ID}&from=${encodeURIComponent(from)}`;

describe("GET /sandbox/flows/{id}", () => {
  it("answers the provider's Flow JSON of a flow the tester received, which the inbox shows as a flow message", async () => {
    const { from } = await testerWithFlow();
    const inbox = await dash(h.app, "GET", `${base}/sandbox/inbox?${customer(from)}`, { as: dev });
    const received = inbox.body.data.find((m: { body: { interactive?: { type?: string } } }) => m.body.interactive?.type === "flow");
    expect(received.body.interactive.action.parameters).toMatchObject({ flow_id: flow.metaFlowId, flow_cta: "Sign up", flow_action: "navigate" });

    const res = await dash(h.app, "GET", `${base}/sandbox/flows/${flow.metaFlowId}?${customer(from)}`, { as: dev });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "simulated_flow", id: flow.metaFlowId, status: "PUBLISHED", has_endpoint: false });
    expect(res.body.flow_json.screens.map((s: { id: string }) => s.id)).toEqual(["DETAILS", "PREFERENCES"]);
  });

  it("is a 404 for a flow this tester never received, here or in another project", async () => {
    const { from } = await testerWithFlow();
    const other = await createFlow(h, acme.key, { name: "Never sent" });
    const otherMeta = (await publish(h, acme.key, other.id)).meta_flow_id as string;
    const notSent = await dash(h.app, "GET", `${base}/sandbox/flows/${otherMeta}?${customer(from)}`, { as: dev });
    expect(notSent.status).toBe(404);
    expect(notSent.body.error).toBe("not_found");

    const quiet = `+${nextPhone()}`;
    await tester(h, acme, quiet.slice(1));
    expect((await dash(h.app, "GET", `${base}/sandbox/flows/${flow.metaFlowId}?${customer(quiet)}`, { as: dev })).status).toBe(404);

    // Another project's operator, with a tester of their own: acme's flow never reached that number.
    const rival = await h.app.seed({ orgName: "Rival" });
    const rivalOp = await addOperator(h.app, rival, "owner");
    const rivalPhone = nextPhone();
    await tester(h, rival, rivalPhone);
    const res = await dash(h.app, "GET", `/projects/${rival.projectId}/sandbox/flows/${flow.metaFlowId}?${customer(`+${rivalPhone}`)}`, { as: rivalOp });
    expect(res.status).toBe(404);
  }, 20_000);
});

describe("POST /sandbox/flows/{id}/complete", () => {
  it("sends the provider's nfm_reply: the conversation records it and the flow has a VALIDATED submission", async () => {
    const { from, conversationId, flowToken } = await testerWithFlow();
    const res = await dash(h.app, "POST", `${base}/sandbox/flows/${flow.metaFlowId}/complete`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: flowToken, response: VALID_RESPONSE },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "simulated_customer_message", channel_id: SANDBOX_CHANNEL_ID, from, webhook_status: 200 });
    await h.settle(30);

    const thread = await dash(h.app, "GET", `${base}/conversations/${conversationId}/messages`, { as: dev });
    const reply = thread.body.data.find(
      (m: { direction: string; interactive: { type?: string } | null }) => m.direction === "inbound" && m.interactive?.type === "nfm_reply",
    );
    expect(reply).toMatchObject({ type: "interactive", platform_message_id: res.body.provider_message_id });
    expect(reply.interactive.flow_token).toBe(flowToken);
    expect(reply.interactive.response).toMatchObject({ full_name: VALID_RESPONSE.full_name, topic: VALID_RESPONSE.topic });
    const submissions = await submissionsOf(h, flow.id);
    expect(submissions.find((s) => s.flowToken === flowToken)?.status).toBe("VALIDATED");
  }, 20_000);

  it("refuses a flow_token the tester did not receive (404), and viewers (insufficient scope)", async () => {
    const { from, flowToken } = await testerWithFlow();
    const forged = await dash(h.app, "POST", `${base}/sandbox/flows/${flow.metaFlowId}/complete`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: "svcft_not_the_one_it_got", response: {} },
    });
    expect(forged.status).toBe(404);
    const viewer = await addOperator(h.app, acme, "viewer");
    const refused = await dash(h.app, "POST", `${base}/sandbox/flows/${flow.metaFlowId}/complete`, {
      as: viewer,
      body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: flowToken, response: {} },
    });
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "messages:send" });
  });
});

describe("POST /sandbox/flows/{id}/exchange", () => {
  it("checks the flow_token belongs to a received flow and the action is one the provider sends", async () => {
    const { from } = await testerWithFlow();
    const call = (body: Record<string, unknown>) =>
      dash(h.app, "POST", `${base}/sandbox/flows/${flow.metaFlowId}/exchange`, { as: dev, body: { channel_id: SANDBOX_CHANNEL_ID, from, ...body } });
    expect((await call({ flow_token: "svcft_someone_elses", action: "INIT" })).status).toBe(404);
    const badAction = await call({ flow_token: "svcft_x", action: "ping" });
    expect(badAction.status).toBe(400);
    expect(badAction.body.issues.action).toBeDefined();
  });

  it("a flow without a data endpoint: the simulator's refusal comes back as a 400 naming why", async () => {
    const { from, flowToken } = await testerWithFlow();
    const res = await dash(h.app, "POST", `${base}/sandbox/flows/${flow.metaFlowId}/exchange`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: flowToken, action: "data_exchange", screen: "DETAILS", data: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("endpoint_uri");
  });
});

describe("a DATA_EXCHANGE flow through the phone's routes", () => {
  it("INIT gives the first screen, a footer's data_exchange gets SUCCESS, and completing with its params is submitted", async () => {
    const created = await createFlow(h, acme.key, { name: "Booking", runtime_mode: "DATA_EXCHANGE", data_exchange_url: `${receiver.url}/data` });
    const published = await publish(h, acme.key, created.id);
    const { from, conversationId, flowToken } = await testerWithFlow(acme.key, acme, created.id);
    const opened = await dash(h.app, "GET", `${base}/sandbox/flows/${published.meta_flow_id}?${customer(from)}`, { as: dev });
    expect(opened.body).toMatchObject({ has_endpoint: true });

    const exchange = (body: Record<string, unknown>) =>
      dash(h.app, "POST", `${base}/sandbox/flows/${published.meta_flow_id}/exchange`, {
        as: dev,
        body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: flowToken, ...body },
      });
    receiver.reply = () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ screen: "DETAILS", data: { greeting: "Hi" } }),
    });
    const init = await exchange({ action: "INIT" });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    expect(init.body).toEqual({
      object: "simulated_flow_exchange",
      endpoint_status: 200,
      response: { screen: "DETAILS", data: { greeting: "Hi" } },
      endpoint_error: null,
    });

    const params = { flow_token: flowToken, ...VALID_RESPONSE };
    receiver.reply = () => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ screen: "SUCCESS", data: { extension_message_response: { params } } }),
    });
    const footer = await exchange({ action: "data_exchange", screen: "DETAILS", data: { full_name: "Ana Lima" } });
    expect(footer.body.response).toMatchObject({ screen: "SUCCESS", data: { extension_message_response: { params } } });
    const forwarded = receiver.received.filter((r) => r.path === "/data").map((r) => JSON.parse(r.raw));
    expect(forwarded.at(-1)).toMatchObject({ action: "data_exchange", screen: "DETAILS", data: { full_name: "Ana Lima" }, flow_token: flowToken });

    const done = await dash(h.app, "POST", `${base}/sandbox/flows/${published.meta_flow_id}/complete`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, from, flow_token: flowToken, response: params },
    });
    expect(done.body.webhook_status).toBe(200);
    await h.settle(30);
    const thread = await dash(h.app, "GET", `${base}/conversations/${conversationId}/messages`, { as: dev });
    expect(thread.body.data.some((m: { interactive: { type?: string; flow_token?: string } | null }) => m.interactive?.flow_token === flowToken)).toBe(true);
    expect((await submissionsOf(h, created.id)).map((s) => s.status)).toEqual(["VALIDATED"]);
  }, 30_000);
});
