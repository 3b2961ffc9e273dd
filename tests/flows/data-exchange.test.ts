import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { startHarness, type Harness } from "../messages/support";
import { startReceiver, type Receiver } from "../support/receiver";
import type { Seeded } from "../support/app";
import { createFlow, publish, tester } from "./support";

/**
 * A DATA_EXCHANGE flow end to end over HTTP: publish registers the number's public key with the
 * provider (the simulator), the simulator plays the customer's app calling our encrypted endpoint,
 * and the call reaches the business's data URL signed with the project's webhook secret.
 */
let h: Harness;
let seeded: Seeded;
let receiver: Receiver;
let secret: string;

beforeAll(async () => {
  h = await startHarness({ publicUrlIsServer: true });
  seeded = await h.app.seed();
  receiver = await startReceiver();
  const patched = await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/hook` } });
  secret = patched.body.webhook_secret;
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

async function exchange(body: Record<string, unknown>) {
  const res = await fetch(`${h.server.url}/api/simulator/customer/flows/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone_number_id: SANDBOX_PHONE_NUMBER_ID, ...body }),
  });
  return { status: res.status, body: (await res.json()) as { status: number; response: Record<string, any> | null } };
}

describe("DATA_EXCHANGE", () => {
  it("INIT reaches the data URL signed, and its answer comes back decrypted", async () => {
    const flow = await createFlow(h, seeded.key, { runtime_mode: "DATA_EXCHANGE", data_exchange_url: `${receiver.url}/data` });
    const published = await publish(h, seeded.key, flow.id);
    expect(published.meta_status).toBe("PUBLISHED");
    expect(h.server.simulator.state.flowPublicKeys.get(SANDBOX_PHONE_NUMBER_ID)).toContain("BEGIN PUBLIC KEY");

    const conversation = await tester(h, seeded, "15552220001");
    const sent = await h.app.call("POST", "/flows/send", {
      key: seeded.key,
      body: { channel_id: "ch_sandbox", flow_id: flow.id, conversation_id: conversation, body_text: "Book" },
    });
    expect(sent.status).toBe(200);
    await h.settle(30);
    const [message] = h.server.simulator.state.allSent().filter((m) => JSON.stringify(m.body).includes(sent.body.flow_token));
    const parameters = (message!.body as any).interactive.action.parameters;
    expect(parameters).toMatchObject({ flow_action: "data_exchange", flow_token: sent.body.flow_token, flow_id: published.meta_flow_id });

    receiver.reply = (request) =>
      request.path === "/data"
        ? { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ screen: "PREFERENCES", data: { slots: 3 } }) }
        : { status: 200 };
    const answer = await exchange({ flow_id: published.meta_flow_id, flow_token: sent.body.flow_token, action: "INIT" });
    expect(answer.body).toMatchObject({ status: 200, response: { screen: "PREFERENCES", data: { slots: 3 } } });
    const forwarded = receiver.received.find((r) => r.path === "/data")!;
    const body = JSON.parse(forwarded.raw);
    expect(body).toMatchObject({ action: "INIT", flow_token: sent.body.flow_token, flow_id: flow.id, dispatch_id: sent.body.id });
    const expected = createHmac("sha256", secret).update(forwarded.raw).digest("hex");
    expect(forwarded.headers["x-svc-signature"]).toBe(`sha256=${expected}`);

    const unknown = await exchange({ flow_id: published.meta_flow_id, flow_token: "svcft_unknown", action: "INIT" });
    expect(unknown.body.status).toBe(427);
  });
});
