import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { addOperator, dash, type Operator } from "../dashboard/support";
import { startReceiver, type Receiver } from "../support/receiver";
import { complete, createFlow, publish, submissionsOf, tester, VALID_RESPONSE } from "./support";

/**
 * A published Flow sent to a sandbox tester once the project owns a number (issue 32 item 3): the flow
 * is published under the number's business account, the tester joined on the shared sandbox, whose
 * account is the service's. The send says so in words with the next step; the dashboard's
 * /flows/{id}/channels says where it is published and publishes the live version on the sandbox too;
 * the tester then gets it and completes it.
 */
let h: Harness;
let receiver: Receiver;
let acme: Seeded;
let owner: Operator;
let ownChannelId: string;
let flowId: string;
let phones = 0;
const nextPhone = () => `1555432${String(++phones).padStart(4, "0")}`;

beforeAll(async () => {
  // publicUrlIsServer: a DATA_EXCHANGE flow's endpoint_uri must reach this test's server.
  h = await startHarness({ settings: { sandboxParticipantCap: 100 }, publicUrlIsServer: true });
  receiver = await startReceiver();
  acme = await h.app.seed({ orgName: "Acme" });
  owner = await addOperator(h.app, acme, "owner");
  const connect = await h.app.call("POST", "/channels", {
    key: acme.key,
    body: {
      platform: "PLATFORM_A",
      display_name: "Own line",
      phone_number: "+15558880000",
      credentials: { phone_number_id: "pn-own-line", business_account_id: "waba-own-line", access_token: "t" },
    },
  });
  expect(connect.status).toBe(200);
  ownChannelId = connect.body.id;
  const flow = await createFlow(h, acme.key, { name: "Feedback" });
  flowId = flow.id;
  expect(await publish(h, acme.key, flowId)).toMatchObject({ status: "PUBLISHED", meta_waba_id: "waba-own-line" });
}, 60_000);
afterAll(async () => {
  await receiver.close();
  await h.close();
});

const channelsOf = (id = flowId, as: Operator = owner) => dash(h.app, "GET", `/projects/${acme.projectId}/flows/${id}/channels`, { as });
const publishOn = (channelId: string, id = flowId, as: Operator = owner) =>
  dash(h.app, "POST", `/projects/${acme.projectId}/flows/${id}/channels`, { as, body: { channel_id: channelId } });
const sendToTester = (conversationId: string) =>
  h.app.call("POST", "/flows/send", {
    key: acme.key,
    body: { channel_id: SANDBOX_CHANNEL_ID, flow_id: flowId, conversation_id: conversationId, body_text: "Tell us", flow_cta: "Open" },
  });
const providerFlowsOf = (account: string) => [...h.server.simulator.state.flows.values()].filter((flow) => flow.business_account_id === account);

describe("a flow published on the project's own number, sent to a sandbox tester", () => {
  it("is refused in words: where it is published, which channel cannot send it, and what to do; ids only beside", async () => {
    const res = await sendToTester(await tester(h, acme, nextPhone()));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: "flow_not_sendable",
      reason: "WABA_MISMATCH",
      channel_id: SANDBOX_CHANNEL_ID,
      published_channel_id: ownChannelId,
      published_business_account_id: "waba-own-line",
    });
    expect(res.body.message).toBe(
      `Flow "Feedback" is published on Own line (+15558880000); the shared sandbox belongs to another business account, so it cannot send this flow yet. ` +
        `Publish it on the shared sandbox first (sending from the flow's page in the dashboard offers to), or send it through Own line (+15558880000, channel_id ${ownChannelId}).`,
    );
  });

  it("GET /flows/{id}/channels: the next publish goes to the own number, and only its channel can send the published version", async () => {
    const res = await channelsOf();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "flow_channels",
      flow_id: flowId,
      published_version: 1,
      publish_target: {
        channel_id: ownChannelId,
        display_name: "Own line",
        phone_number: "+15558880000",
        is_sandbox: false,
        business_account_id: "waba-own-line",
        primary: true,
      },
      senders: [expect.objectContaining({ channel_id: ownChannelId, primary: true })],
    });
  });

  it("POST /flows/{id}/channels on the sandbox publishes version 1 there once; the tester then gets it and completes it", async () => {
    const before = providerFlowsOf("sandbox-waba").length;
    const res = await publishOn(SANDBOX_CHANNEL_ID);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.senders).toEqual([
      expect.objectContaining({ channel_id: ownChannelId, primary: true }),
      expect.objectContaining({ channel_id: SANDBOX_CHANNEL_ID, is_sandbox: true, business_account_id: "sandbox-waba", primary: false }),
    ]);
    const copies = providerFlowsOf("sandbox-waba").slice(before);
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ status: "PUBLISHED" });
    // Again: nothing new at the provider.
    expect((await publishOn(SANDBOX_CHANNEL_ID)).status).toBe(200);
    expect(providerFlowsOf("sandbox-waba").slice(before)).toHaveLength(1);
    // The flow itself stays published on the own number.
    const flow = await h.app.call("GET", `/flows/${flowId}`, { key: acme.key });
    expect(flow.body).toMatchObject({ meta_waba_id: "waba-own-line", published_version: 1 });

    const phone = nextPhone();
    const sent = await sendToTester(await tester(h, acme, phone));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ channel_id: SANDBOX_CHANNEL_ID, flow_version: 1 });
    await h.settle(20);
    const [message] = h.server.simulator.state.allSent().filter((m) => JSON.stringify(m.body).includes(sent.body.flow_token));
    expect((message!.body as any).interactive.action.parameters.flow_id).toBe(copies[0]!.id);
    await complete(h, phone, sent.body.flow_token, VALID_RESPONSE);
    const [submission] = (await submissionsOf(h, flowId)).filter((row) => row.flowToken === sent.body.flow_token);
    expect(submission).toMatchObject({ status: "VALIDATED" });
  });

  it("a re-publish moves customers to version 2 and deprecates version 1's sandbox copy: the sandbox needs version 2 published there", async () => {
    const copyOfV1 = providerFlowsOf("sandbox-waba").at(-1)!;
    const edited = await h.app.call("PATCH", `/flows/${flowId}`, { key: acme.key, body: { draft: await draftOf() } });
    expect(edited.body).toMatchObject({ has_unpublished_changes: true });
    expect(await publish(h, acme.key, flowId)).toMatchObject({ published_version: 2 });
    expect(h.server.simulator.state.flows.get(copyOfV1.id)?.status).toBe("DEPRECATED");
    const refused = await sendToTester(await tester(h, acme, nextPhone()));
    expect(refused.body).toMatchObject({ error: "flow_not_sendable", reason: "WABA_MISMATCH" });
    expect((await publishOn(SANDBOX_CHANNEL_ID)).body).toMatchObject({
      published_version: 2,
      senders: [expect.anything(), expect.objectContaining({ channel_id: SANDBOX_CHANNEL_ID })],
    });
  });
});

/** The flow's saved draft, to save it again with a change (a new revision to publish). */
async function draftOf() {
  const res = await h.app.call("GET", `/flows/${flowId}?include=draft`, { key: acme.key });
  const draft = res.body.draft as { screens: Array<{ title: string }> };
  return { ...draft, screens: draft.screens.map((screen, index) => (index === 0 ? { ...screen, title: `${screen.title} again` } : screen)) };
}

describe("who may see and do it", () => {
  it("a viewer reads where it is published but cannot publish it anywhere (403); another organization's operator gets 404", async () => {
    const viewer = await addOperator(h.app, acme, "viewer");
    expect((await channelsOf(flowId, viewer)).status).toBe(200);
    const refused = await publishOn(SANDBOX_CHANNEL_ID, flowId, viewer);
    expect(refused.status).toBe(403);
    const other = await h.app.seed({ orgName: "Other" });
    const stranger = await addOperator(h.app, other, "owner");
    const asStranger = await dash(h.app, "GET", `/projects/${other.projectId}/flows/${flowId}/channels`, { as: stranger });
    expect(asStranger.status).toBe(404);
    const publishAsStranger = await dash(h.app, "POST", `/projects/${other.projectId}/flows/${flowId}/channels`, {
      as: stranger,
      body: { channel_id: SANDBOX_CHANNEL_ID },
    });
    expect(publishAsStranger.status).toBe(404);
  });

  it("another organization's channel is not found; a flow never published says to publish it first", async () => {
    const other = await h.app.seed({ orgName: "Third" });
    const connect = await h.app.call("POST", "/channels", {
      key: other.key,
      body: {
        platform: "PLATFORM_A",
        display_name: "Theirs",
        phone_number: "+15558881111",
        credentials: { phone_number_id: "pn-theirs", business_account_id: "waba-theirs", access_token: "t" },
      },
    });
    expect((await publishOn(connect.body.id)).status).toBe(404);
    const draft = await createFlow(h, acme.key, { name: "Not yet", config_key: "not_yet" });
    const res = await publishOn(SANDBOX_CHANNEL_ID, draft.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Flow "Not yet" has no published version to put on another channel. Publish it first, then publish it there.');
  });
});

describe("a DATA_EXCHANGE flow published on the sandbox too", () => {
  it("the tester's INIT reaches the flow's data URL: the request encrypted for the sandbox's key is decrypted", async () => {
    const created = await createFlow(h, acme.key, {
      name: "Booking",
      config_key: "booking",
      runtime_mode: "DATA_EXCHANGE",
      data_exchange_url: `${receiver.url}/data`,
    });
    await publish(h, acme.key, created.id);
    const copied = await publishOn(SANDBOX_CHANNEL_ID, created.id);
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    const copy = providerFlowsOf("sandbox-waba").at(-1)!;
    expect(copy.endpoint_uri).toContain(`/flows/${created.id}/endpoint`);

    const phone = nextPhone();
    const sent = await h.app.call("POST", "/flows/send", {
      key: acme.key,
      body: { channel_id: SANDBOX_CHANNEL_ID, flow_id: created.id, conversation_id: await tester(h, acme, phone), body_text: "Book" },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await h.settle(20);
    receiver.reply = () => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ screen: "DETAILS", data: {} }) });
    const init = await dash(h.app, "POST", `/projects/${acme.projectId}/sandbox/flows/${copy.id}/exchange`, {
      as: owner,
      body: { channel_id: SANDBOX_CHANNEL_ID, from: `+${phone}`, flow_token: sent.body.flow_token, action: "INIT" },
    });
    expect(init.body).toMatchObject({ endpoint_status: 200, response: { screen: "DETAILS" }, endpoint_error: null });
  });
});
