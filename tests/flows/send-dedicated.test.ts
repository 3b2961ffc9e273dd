import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, publish } from "./support";
import { createTemplate, forceReview } from "../templates/support";

/**
 * A flow published under the project's own number (its business account), sent by `to`: the opt-in
 * rule, the window rule, and the way out of the window (a template carrying the flow button).
 */
let h: Harness;
let seeded: Seeded;
let channelId: string;
let flowId: string;

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  // The window rule is what these tests look at; the opt-in rule has its own test, which requires it and puts this back.
  await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { require_opt_in: false } });
  const connect = await h.app.call("POST", "/channels", {
    key: seeded.key,
    body: {
      platform: "PLATFORM_A",
      display_name: "Own",
      phone_number: "+15556660000",
      credentials: { phone_number_id: "pn-dedicated", business_account_id: "waba-dedicated", access_token: "t" },
    },
  });
  expect(connect.status).toBe(200);
  channelId = connect.body.id;
  const flow = await createFlow(h, seeded.key);
  const published = await publish(h, seeded.key, flow.id);
  expect(published).toMatchObject({ status: "PUBLISHED", meta_waba_id: "waba-dedicated" });
  flowId = flow.id;
  // The way out of the window: an approved template of the channel whose FLOW button opens the flow.
  const template = await createTemplate(h, seeded.key, {
    channel_id: channelId,
    name: "signup_invite",
    language: "en_US",
    category: "MARKETING",
    components: [
      { type: "BODY", text: "Join the club in one minute." },
      { type: "BUTTONS", buttons: [{ type: "FLOW", text: "Sign up", flow_id: flowId, navigate_screen: "DETAILS" }] },
    ],
  });
  await forceReview(h, template.meta_template_id, { status: "APPROVED" });
  await h.settle(20);
});
afterAll(() => h.close());

const send = (body: Record<string, unknown>) =>
  h.app.call("POST", "/flows/send", { key: seeded.key, body: { channel_id: channelId, flow_id: flowId, body_text: "Sign up", ...body } });

describe("connecting a PLATFORM_A number", () => {
  it("makes its DATA_EXCHANGE key pair after the connect and registers the public key with the provider", async () => {
    await h.settle(20);
    const [row] = await h.app.db.select().from(channels).where(eq(channels.id, channelId));
    expect(row!.flowKeyRegisteredAt).toBeInstanceOf(Date);
    expect(row!.flowPrivateKeySealed).not.toContain("PRIVATE KEY");
    expect(h.server.simulator.state.flowPublicKeys.get("pn-dedicated")?.trim()).toBe(row!.flowPublicKey!.trim());
  });
});

describe("POST /flows/send by `to` on a dedicated number", () => {
  it("needs an active opt-in when the project requires one", async () => {
    await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { require_opt_in: true } });
    try {
      const res = await send({ to: "+15556661111" });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe("contact_opt_in_required");
    } finally {
      await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { require_opt_in: false } });
    }
  });

  it("outside the window without a template: 409 outside_messaging_window, and nothing is written", async () => {
    const res = await send({ to: "+15556662222" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("outside_messaging_window");
    const dispatches = await h.app.call("GET", `/flows/${flowId}/dispatches`, { key: seeded.key });
    expect(dispatches.body.data.filter((d: { to: string }) => d.to === "+15556662222")).toEqual([]);
  });

  it("outside the window with a template: the flow travels as the template's FLOW button with the dispatch's token", async () => {
    const res = await send({ to: "+15556663333", template: { name: "signup_invite", language: "en_US" }, data: { source: "ad" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "flow_dispatch", status: "SENT", to: "+15556663333", channel_id: channelId });
    await h.settle(30);
    const [sent] = h.server.simulator.state.allSent().filter((m) => JSON.stringify(m.body).includes(res.body.flow_token));
    expect(sent!.type).toBe("template");
    expect((sent!.body as any).template.components).toEqual([
      {
        type: "button",
        sub_type: "flow",
        index: "0",
        parameters: [{ type: "action", action: { flow_token: res.body.flow_token, flow_action_data: { source: "ad" } } }],
      },
    ]);
  });
});
