import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { flowDispatches } from "@/lib/db/schema";
import { startHarness, type Harness } from "../messages/support";
import { settleUntil, testerNumber } from "../messages/send-support";
import type { Seeded } from "../support/app";
import { VALID_RESPONSE, createFlow, publish, submissionsOf } from "../flows/support";
import { connectNumber, createTemplate, forceReview } from "./support";

/**
 * POST /messages `template` (docs/spec/decisions.md "Templates" → Sending) on a dedicated number
 * connected to the simulator, with templates submitted and reviewed through it: resolution among
 * the channel's templates, the APPROVED rule, parameters against the components, the window, and
 * FLOW buttons (a fresh dispatch and token, completed like any Flow send).
 */
let h: Harness;
let seeded: Seeded;
let channel: { id: string; businessAccountId: string };
let flowId: string;
const t: Record<"shipped" | "named" | "pending" | "rejected" | "club", { id: string; name: string; meta_template_id: string }> = {} as never;

async function approved(body: Record<string, unknown>) {
  const template = await createTemplate(h, seeded.key, { channel_id: channel.id, language: "en_US", category: "UTILITY", ...body });
  await forceReview(h, template.meta_template_id, { status: "APPROVED" });
  return template;
}

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  channel = await connectNumber(h, seeded.key);
  const flow = await createFlow(h, seeded.key);
  await publish(h, seeded.key, flow.id);
  flowId = flow.id;
  t.shipped = await approved({
    name: "order_shipped",
    components: [{ type: "BODY", text: "Your order {{1}} has shipped today.", example: { body_text: [["A-1"]] } }],
  });
  t.named = await approved({
    name: "greeting_named",
    parameter_format: "NAMED",
    components: [
      {
        type: "BODY",
        text: "Hello {{first_name}}, your code is {{code}} today.",
        example: {
          body_text_named_params: [
            { param_name: "first_name", example: "Ana" },
            { param_name: "code", example: "1234" },
          ],
        },
      },
    ],
  });
  t.club = await approved({
    name: "club_invite",
    category: "MARKETING",
    components: [
      { type: "BODY", text: "Join the club in a minute." },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Not now" },
          { type: "FLOW", text: "Sign up", flow_id: flowId, navigate_screen: "DETAILS" },
        ],
      },
    ],
  });
  t.pending = await createTemplate(h, seeded.key, {
    channel_id: channel.id,
    name: "still_pending",
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Not reviewed yet." }],
  });
  // The simulator forgets it, so its timed review never approves it.
  h.server.simulator.state.templates.delete(t.pending.meta_template_id);
  t.rejected = await createTemplate(h, seeded.key, {
    channel_id: channel.id,
    name: "was_rejected",
    language: "en_US",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Rejected one." }],
  });
  await forceReview(h, t.rejected.meta_template_id, { status: "REJECTED" });
  await h.settle(20);
});
afterAll(() => h.close());

/** A customer opted in on the channel who never wrote: outside the 24 h window. */
async function recipient(key = seeded.key, channelId = channel.id): Promise<string> {
  const digits = testerNumber();
  const res = await h.app.call("POST", "/contacts", { key, body: { phone: `+${digits}`, channel_id: channelId, opt_in: true } });
  expect(res.status).toBe(200);
  return digits;
}

async function sendTemplate(template: Record<string, unknown>, options: { to?: string; key?: string; channelId?: string; idempotencyKey?: string } = {}) {
  const to = options.to ?? (await recipient());
  const res = await h.app.call("POST", "/messages", {
    key: options.key ?? seeded.key,
    body: { channel_id: options.channelId ?? channel.id, to: `+${to}`, template },
    ...(options.idempotencyKey ? { headers: { "idempotency-key": options.idempotencyKey } } : {}),
  });
  return Object.assign(res, { to });
}

/** The body the provider received for the message sent to `to` (after the provider.send job ran). */
async function providerBody(to: string): Promise<Record<string, any>> {
  expect(await settleUntil(h, async () => h.server.simulator.state.allSent().some((m) => m.to === to))).toBe(true);
  return h.server.simulator.state.allSent().find((m) => m.to === to)!.body;
}

const bodyParameters = (...values: string[]) => [{ type: "body", parameters: values.map((text) => ({ type: "text", text })) }];

describe("resolving the template", () => {
  it("by id: the provider gets its name and language, and the Message says which template went out", async () => {
    const components = bodyParameters("A-1042");
    const res = await sendTemplate({ id: t.shipped.id, components });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "message", status: "queued", template: { name: "order_shipped", language: "en_US", components } });
    expect((await providerBody(res.to)).template).toEqual({ name: "order_shipped", language: { code: "en_US" }, components });
    const read = await h.app.call("GET", `/messages/${res.body.id}`, { key: seeded.key });
    expect(read.body).toMatchObject({ type: "template", template: { name: "order_shipped", language: "en_US", components } });
  });

  it("by name and language, outside the 24 h window: a text to the same customer is refused, the template goes", async () => {
    const to = await recipient();
    const text = await h.app.call("POST", "/messages", { key: seeded.key, body: { channel_id: channel.id, to: `+${to}`, text: "Hi" } });
    expect(text.status).toBe(409);
    expect(text.body.error).toBe("outside_messaging_window");
    const res = await sendTemplate({ name: "order_shipped", language: "en_US", components: bodyParameters("A-7") }, { to });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await providerBody(to)).template).toMatchObject({ name: "order_shipped", language: { code: "en_US" } });
  });

  it("an unknown id is 404 with an issue at template.id, and nothing is written or sent", async () => {
    const res = await sendTemplate({ id: "tmpl_01JZZZZZZZZZZZZZZZZZZZZZZZ" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", issues: { "template.id": ["Unknown template."] } });
    await h.settle(10);
    expect(h.server.simulator.state.allSent().some((m) => m.to === res.to)).toBe(false);
  });

  it("an unknown name in that language is 404 with an issue at template.name", async () => {
    const res = await sendTemplate({ name: "order_shipped", language: "es" });
    expect(res.status).toBe(404);
    expect(res.body.issues["template.name"]).toEqual([expect.stringContaining("'order_shipped' in es")]);
  });

  it("another project's template id, and another channel's, are 404", async () => {
    const other = await h.app.seed({ orgName: "Other" });
    const theirChannel = await connectNumber(h, other.key);
    const theirs = await createTemplate(h, other.key, {
      channel_id: theirChannel.id,
      name: "order_shipped",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Theirs." }],
    });
    const secondChannel = await connectNumber(h, seeded.key);
    const onSecond = await createTemplate(h, seeded.key, {
      channel_id: secondChannel.id,
      name: "only_on_second",
      language: "en_US",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Second number." }],
    });
    await forceReview(h, onSecond.meta_template_id, { status: "APPROVED" });
    for (const template of [{ id: theirs.id }, { id: onSecond.id }, { name: "only_on_second", language: "en_US" }]) {
      const res = await sendTemplate(template);
      expect(res.status, JSON.stringify(template)).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
  });

  it("the shared sandbox still refuses templates with 412 channel_not_ready", async () => {
    const res = await h.app.call("POST", "/messages", {
      key: seeded.key,
      body: { channel_id: "ch_sandbox", to: "+15550001111", template: { id: t.shipped.id } },
    });
    expect(res.status).toBe(412);
    expect(res.body.blockers).toEqual(["SANDBOX_TEMPLATES_NOT_SUPPORTED"]);
  });
});

describe("the APPROVED rule", () => {
  it("PENDING and REJECTED templates are 409 template_not_approved with template_status", async () => {
    for (const [template, status] of [
      [t.pending, "PENDING"],
      [t.rejected, "REJECTED"],
    ] as const) {
      const res = await sendTemplate({ id: template.id });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "template_not_approved", template_status: status, template_id: template.id });
      const byName = await sendTemplate({ name: template.name, language: "en_US" });
      expect(byName.body).toMatchObject({ error: "template_not_approved", template_status: status });
    }
  });
});

describe("parameters against the components", () => {
  it("a wrong count of body parameters, or none at all, is 422 template_parameters_invalid with issues", async () => {
    const tooMany = await sendTemplate({ id: t.shipped.id, components: bodyParameters("A-1", "extra") });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ error: "template_parameters_invalid", template_id: t.shipped.id });
    expect(tooMany.body.issues["template.components.0.parameters"]).toEqual([expect.stringContaining("expects 1 parameter")]);
    const none = await sendTemplate({ id: t.shipped.id });
    expect(none.status).toBe(422);
    expect(none.body.issues["template.components"]).toEqual([expect.stringContaining("body expects 1 parameter")]);
  });

  it("a NAMED template needs its keys: an unknown key and a missing one are issues", async () => {
    const ok = await sendTemplate({
      id: t.named.id,
      components: [
        {
          type: "body",
          parameters: [
            { type: "text", parameter_name: "first_name", text: "Ana" },
            { type: "text", parameter_name: "code", text: "9" },
          ],
        },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const wrong = await sendTemplate({
      id: t.named.id,
      components: [{ type: "body", parameters: [{ type: "text", parameter_name: "name", text: "Ana" }] }],
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.issues["template.components.0.parameters.0.parameter_name"]).toEqual([expect.stringContaining("has no {{name}}")]);
    expect(wrong.body.issues["template.components.0.parameters"]).toEqual([expect.stringContaining("{{first_name}}")]);
  });

  it("a button index the template does not have is an issue at its index", async () => {
    const res = await sendTemplate({
      id: t.club.id,
      components: [{ type: "button", sub_type: "flow", index: 5, parameters: [{ type: "action", action: {} }] }],
    });
    expect(res.status).toBe(422);
    expect(res.body.issues["template.components.0.index"]).toEqual([expect.stringContaining("no button 5")]);
  });
});

describe("a FLOW button", () => {
  it("without a flow_token gets a fresh token and dispatch; completing the flow records a submission", async () => {
    const res = await sendTemplate({ id: t.club.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const button = res.body.template.components[0];
    expect(button).toMatchObject({
      type: "button",
      sub_type: "flow",
      index: "1",
      parameters: [{ type: "action", action: { flow_token: expect.any(String) } }],
    });
    const token = button.parameters[0].action.flow_token as string;
    expect(token).toMatch(/^svcft_/);
    expect((await providerBody(res.to)).template.components).toEqual([button]);

    const dispatches = await h.app.call("GET", `/flows/${flowId}/dispatches`, { key: seeded.key });
    const dispatch = (dispatches.body.data as Record<string, unknown>[]).find((d) => d.flow_token === token);
    expect(dispatch).toMatchObject({ status: "SENT", channel_id: channel.id, to: `+${res.to}` });
    expect((await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.flowToken, token)))[0]!.messageId).toBe(res.body.id);

    const phoneNumberId = await providerSender(res.to);
    await h.customer({
      sender_id: phoneNumberId,
      from: res.to,
      type: "flow_completion",
      flow: { flow_token: token, response: { flow_token: token, ...VALID_RESPONSE } },
    });
    expect(await settleUntil(h, async () => (await submissionsOf(h, flowId)).some((s) => s.flowToken === token))).toBe(true);
    const [submission] = (await submissionsOf(h, flowId)).filter((s) => s.flowToken === token);
    expect(submission).toMatchObject({ status: "VALIDATED", submission: expect.objectContaining({ full_name: "Ana Lima" }) });
    const [row] = await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.flowToken, token));
    expect(row!.status).toBe("COMPLETED");
    const completed = (await h.eventsOf(seeded.projectId, "flow.completed")).map((e) => e.payload as Record<string, unknown>);
    expect(completed.some((p) => p.flow_token === token)).toBe(true);
  });

  it("keeps a given flow_token (no dispatch of ours) and completes a given action with a minted one", async () => {
    const given = await sendTemplate({
      id: t.club.id,
      components: [{ type: "button", sub_type: "flow", index: "1", parameters: [{ type: "action", action: { flow_token: "caller-token-1" } }] }],
    });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect(given.body.template.components[0].parameters[0].action).toEqual({ flow_token: "caller-token-1" });
    expect(await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.messageId, given.body.id))).toEqual([]);

    const data = await sendTemplate({
      id: t.club.id,
      components: [{ type: "button", sub_type: "flow", index: 1, parameters: [{ type: "action", action: { flow_action_data: { source: "ad" } } }] }],
    });
    expect(data.status, JSON.stringify(data.body)).toBe(200);
    const action = data.body.template.components[0].parameters[0].action;
    expect(action).toEqual({ flow_action_data: { source: "ad" }, flow_token: expect.stringMatching(/^svcft_/) });
    const [dispatch] = await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.messageId, data.body.id));
    expect(dispatch).toMatchObject({ flowToken: action.flow_token, flowId });
  });

  it("a replayed send (same Idempotency-Key) writes no second dispatch", async () => {
    const to = await recipient();
    const first = await sendTemplate({ id: t.club.id }, { to, idempotencyKey: "tmpl-flow-replay-1" });
    const again = await sendTemplate({ id: t.club.id }, { to, idempotencyKey: "tmpl-flow-replay-1" });
    expect(again.body.id).toBe(first.body.id);
    expect(await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.messageId, first.body.id))).toHaveLength(1);
  });
});

describe("POST /flows/send outside the window (the template fallback)", () => {
  const flowSend = async (template: { name: string; language: string }) => {
    const to = await recipient();
    const res = await h.app.call("POST", "/flows/send", {
      key: seeded.key,
      body: { channel_id: channel.id, flow_id: flowId, to: `+${to}`, body_text: "Sign up", template },
    });
    return Object.assign(res, { to });
  };
  const dispatchesTo = async (to: string) =>
    (
      await h.app.db
        .select()
        .from(flowDispatches)
        .where(eq(flowDispatches.to, `+${to}`))
    ).length;

  it("an unapproved template is 409 template_not_approved, and no dispatch is written", async () => {
    const res = await flowSend({ name: "still_pending", language: "en_US" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "template_not_approved", template_status: "PENDING" });
    expect(await dispatchesTo(res.to)).toBe(0);
  });

  it("a template that is not the channel's is 404; one without a FLOW button for this flow is 422", async () => {
    const unknown = await flowSend({ name: "nowhere", language: "en_US" });
    expect(unknown.status).toBe(404);
    const noButton = await flowSend({ name: "order_shipped", language: "en_US" });
    expect(noButton.status).toBe(422);
    expect(noButton.body).toMatchObject({ error: "template_parameters_invalid", issues: { template: [expect.stringContaining(flowId)] } });
    expect(await dispatchesTo(unknown.to)).toBe(0);
    expect(await dispatchesTo(noButton.to)).toBe(0);
  });

  it("an approved template carries the flow at its FLOW button's index, with the dispatch's token", async () => {
    const res = await flowSend({ name: "club_invite", language: "en_US" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await providerBody(res.to)).template.components).toEqual([
      { type: "button", sub_type: "flow", index: "1", parameters: [{ type: "action", action: { flow_token: res.body.flow_token } }] },
    ]);
    expect(await dispatchesTo(res.to)).toBe(1);
  });
});

/** The phone_number_id the simulator received the message to `to` from. */
async function providerSender(to: string): Promise<string> {
  return h.server.simulator.state.allSent().find((m) => m.to === to)!.sender_id;
}
