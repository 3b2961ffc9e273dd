import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { startReceiver } from "../support/receiver";
import { expireDispatches } from "@/lib/domain/flows/expiry";
import { complete, createFlow, dispatchRow, publish, signupDraft, submissionsOf, tester, VALID_RESPONSE } from "./support";

/** Publish → send → complete against the real simulator over HTTP (the provider's Flows API and webhooks). */
let h: Harness;
let seeded: Seeded;
let phones = 0;
/** A tester per test: sends to one number are paced (one per 6 s per pair). */
const nextPhone = () => `1555123${String(++phones).padStart(4, "0")}`;

beforeAll(async () => {
  // Every test has its own tester (sends to one number are paced), more than the default cap of 5.
  h = await startHarness({ settings: { sandboxParticipantCap: 100 } });
  seeded = await h.app.seed();
});
afterAll(() => h.close());

/** POST /flows/send of a flow to a sandbox tester's conversation. */
function sendTo(flowId: string, conversationId: string) {
  return h.app.call("POST", "/flows/send", {
    key: seeded.key,
    body: { channel_id: "ch_sandbox", flow_id: flowId, conversation_id: conversationId, body_text: "Hi" },
  });
}

async function simulator(path: string, body: unknown) {
  const res = await fetch(`${h.server.url}/api/simulator${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`simulator ${path}: ${res.status} ${await res.text()}`);
}

describe("publishing", () => {
  it("PUBLISHING at once, then PUBLISHED with version 1 and exactly one flow.status", async () => {
    const flow = await createFlow(h, seeded.key);
    const res = await h.app.call("POST", `/flows/${flow.id}/publish`, { key: seeded.key });
    expect(res.status).toBe(200);
    expect(res.body.meta_status).toBe("PUBLISHING");
    expect(res.body.status).toBe("DRAFT");
    await h.settle(30);
    const after = (await h.app.call("GET", `/flows/${flow.id}`, { key: seeded.key })).body;
    expect(after).toMatchObject({
      status: "PUBLISHED",
      meta_status: "PUBLISHED",
      published_version: 1,
      meta_waba_id: "sandbox-waba",
      has_unpublished_changes: false,
    });
    expect(after.meta_flow_id).toEqual(expect.any(String));
    const statuses = (await h.eventsOf(seeded.projectId, "flow.status")).filter((e) => e.payload.flow_id === flow.id);
    expect(statuses.map((e) => [e.payload.old_status, e.payload.new_status])).toEqual([["DRAFT", "PUBLISHED"]]);
    const del = await h.app.call("DELETE", `/flows/${flow.id}`, { key: seeded.key });
    expect(del.status).toBe(409);
    expect(del.body.error).toBe("flow_published");
  });

  it("a provider refusal ends in PUBLISH_FAILED with the provider's errors, status unchanged", async () => {
    const flow = await createFlow(h, seeded.key);
    await simulator("/control/flows/fail-next-publish", { business_account_id: "sandbox-waba" });
    const after = await publish(h, seeded.key, flow.id);
    expect(after.status).toBe("DRAFT");
    expect(after.meta_status).toBe("PUBLISH_FAILED");
    expect(after.meta_status_reason).toEqual(expect.any(String));
    expect(after.validation_errors.length).toBeGreaterThan(0);
    expect(after.validation_errors[0]).toHaveProperty("code");
  });

  it("editing a published flow keeps sends on its version; the next publish cuts version 2", async () => {
    const flow = await createFlow(h, seeded.key);
    const v1 = await publish(h, seeded.key, flow.id);
    const draft = signupDraft();
    draft.screens[0]!.title = "About you";
    const edited = await h.app.call("PATCH", `/flows/${flow.id}`, { key: seeded.key, body: { draft } });
    expect(edited.body).toMatchObject({ status: "PUBLISHED", has_unpublished_changes: true, published_version: 1 });
    const phone = nextPhone();
    const conversation = await tester(h, seeded, phone);
    const sent = await sendTo(flow.id, conversation);
    expect(sent.status).toBe(200);
    expect(sent.body.flow_version).toBe(1);
    const v2 = await publish(h, seeded.key, flow.id);
    expect(v2).toMatchObject({ published_version: 2, has_unpublished_changes: false });
    expect(v2.meta_flow_id).not.toBe(v1.meta_flow_id);
    const old = await fetch(`${h.server.url}/api/simulator/customer/flows/${v1.meta_flow_id}`).then((r) => r.json());
    expect(old.status).toBe("DEPRECATED");
  });

  it("the provider blocking a flow moves meta_status, emits flow.status and stops sends", async () => {
    const flow = await createFlow(h, seeded.key);
    const published = await publish(h, seeded.key, flow.id);
    await simulator(`/control/flows/${published.meta_flow_id}/status`, { status: "BLOCKED" });
    await h.settle(30);
    const after = (await h.app.call("GET", `/flows/${flow.id}`, { key: seeded.key })).body;
    expect(after.meta_status).toBe("BLOCKED");
    const statuses = (await h.eventsOf(seeded.projectId, "flow.status")).filter((e) => e.payload.flow_id === flow.id);
    expect(statuses.map((e) => e.payload.new_status)).toEqual(["PUBLISHED", "BLOCKED"]);
    const phone = nextPhone();
    const conversation = await tester(h, seeded, phone);
    const sent = await sendTo(flow.id, conversation);
    expect(sent.status).toBe(422);
    expect(sent.body).toMatchObject({ error: "flow_not_sendable", reason: "META_STATUS_BLOCKED" });
  });

  it("deprecate: only PUBLISHED; then not sendable and the key is free", async () => {
    const draftOnly = await createFlow(h, seeded.key);
    expect((await h.app.call("POST", `/flows/${draftOnly.id}/deprecate`, { key: seeded.key })).status).toBe(409);
    const flow = await createFlow(h, seeded.key, { config_key: "retire" });
    await publish(h, seeded.key, flow.id);
    const res = await h.app.call("POST", `/flows/${flow.id}/deprecate`, { key: seeded.key });
    expect(res.body).toMatchObject({ status: "DEPRECATED", meta_status: "DEPRECATED" });
    const successor = await h.app.call("POST", "/flows", { key: seeded.key, body: { name: "Next", config_key: "retire", draft: signupDraft() } });
    expect(successor.status).toBe(200);
  });
});

describe("send and completion", () => {
  it("sends with a unique flow_token; one completion (however often the provider repeats it) → one submission, one flow.completed", async () => {
    const flow = await createFlow(h, seeded.key, { config_key: "complete-me" });
    await publish(h, seeded.key, flow.id);
    const phone = nextPhone();
    const conversation = await tester(h, seeded, phone);
    const sent = await h.app.call("POST", "/flows/send", {
      key: seeded.key,
      body: { channel_id: "ch_sandbox", flow_id: flow.id, conversation_id: conversation, body_text: "Please sign up", flow_cta: "Sign up" },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ object: "flow_dispatch", status: "SENT", flow_id: flow.id, conversation_id: conversation, agent_id: seeded.projectId });
    expect(sent.body.flow_token).toMatch(/^svcft_[0-9A-Za-z]{26,}$/);
    const expires = new Date(sent.body.expires_at).getTime() - new Date(sent.body.created_at).getTime();
    expect(expires).toBe(30 * 24 * 3600_000);
    await h.settle(30);
    const message = await h.messageRow(sent.body.message_id);
    expect(message.type).toBe("interactive");
    expect(message.platformMessageId).toEqual(expect.any(String));

    await complete(h, phone, sent.body.flow_token, VALID_RESPONSE);
    await complete(h, phone, sent.body.flow_token, VALID_RESPONSE);
    const submissions = await submissionsOf(h, flow.id);
    expect(submissions).toHaveLength(1);
    expect(submissions[0]!.submission).toEqual({ ...VALID_RESPONSE, age: 34 });
    const completed = (await h.eventsOf(seeded.projectId, "flow.completed")).filter((e) => e.payload.flow_token === sent.body.flow_token);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.payload).toMatchObject({
      flow_id: flow.id,
      dispatch_id: sent.body.id,
      submission_id: submissions[0]!.id,
      conversation_id: conversation,
      channel_id: "ch_sandbox",
      agent_id: seeded.projectId,
      organization_id: seeded.orgId,
      config_key: "complete-me",
    });
    expect((await dispatchRow(h, sent.body.flow_token)).status).toBe("COMPLETED");
    const listed = await h.app.call("GET", `/flows/${flow.id}/submissions`, { key: seeded.key });
    expect(listed.body.data).toHaveLength(1);
    const dispatches = await h.app.call("GET", `/flows/${flow.id}/dispatches`, { key: seeded.key });
    expect(dispatches.body.data[0]).toMatchObject({ id: sent.body.id, status: "COMPLETED" });
  });

  it("a submission that breaks field_schema is REJECTED with errors and emits nothing", async () => {
    const flow = await createFlow(h, seeded.key);
    await publish(h, seeded.key, flow.id);
    const phone = nextPhone();
    const conversation = await tester(h, seeded, phone);
    const sent = await sendTo(flow.id, conversation);
    expect(sent.status).toBe(200);
    await h.settle(30);
    await complete(h, phone, sent.body.flow_token, { ...VALID_RESPONSE, email: "not-an-email", topic: "nope", full_name: "" });
    const [submission] = await submissionsOf(h, flow.id);
    expect(submission!.status).toBe("REJECTED");
    expect((submission!.errors as { field: string; code: string }[]).map((e) => `${e.field}:${e.code}`).sort()).toEqual(
      ["email:INVALID_EMAIL", "full_name:REQUIRED", "topic:INVALID_OPTION"].sort(),
    );
    const completed = (await h.eventsOf(seeded.projectId, "flow.completed")).filter((e) => e.payload.flow_token === sent.body.flow_token);
    expect(completed).toHaveLength(0);
    expect((await dispatchRow(h, sent.body.flow_token)).status).toBe("SENT");
  });

  it("a delivered flow.completed marks the submission FORWARDED, with the submitted fields on the wire", async () => {
    const receiver = await startReceiver();
    try {
      await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: `${receiver.url}/hook` } });
      const flow = await createFlow(h, seeded.key);
      await publish(h, seeded.key, flow.id);
      const phone = nextPhone();
      const conversation = await tester(h, seeded, phone);
      const sent = await sendTo(flow.id, conversation);
      await h.settle(30);
      await complete(h, phone, sent.body.flow_token, VALID_RESPONSE);
      const completed = receiver.received.map((r) => JSON.parse(r.raw)).filter((body) => body.event === "flow.completed");
      expect(completed).toHaveLength(1);
      expect(completed[0].payload.submission).toMatchObject({ full_name: "Ana Lima", topic: "support", age: 34 });
      const [submission] = await submissionsOf(h, flow.id);
      expect(submission!.status).toBe("FORWARDED");
    } finally {
      await h.app.call("PATCH", `/projects/${seeded.projectId}`, { key: seeded.key, body: { webhook_url: null } });
      await receiver.close();
    }
  });

  it("after 30 days the sweep expires the dispatch; a late completion is stored REJECTED (DISPATCH_EXPIRED), no event", async () => {
    const flow = await createFlow(h, seeded.key);
    await publish(h, seeded.key, flow.id);
    const phone = nextPhone();
    const conversation = await tester(h, seeded, phone);
    const sent = await sendTo(flow.id, conversation);
    await h.settle(30);
    h.app.clock.advance(31 * 24 * 3600_000);
    try {
      expect(await expireDispatches(h.app.systemCtx())).toBeGreaterThanOrEqual(1);
      expect((await dispatchRow(h, sent.body.flow_token)).status).toBe("EXPIRED");
      await complete(h, phone, sent.body.flow_token, VALID_RESPONSE);
      const [submission] = await submissionsOf(h, flow.id);
      expect(submission).toMatchObject({ status: "REJECTED", errors: [expect.objectContaining({ code: "DISPATCH_EXPIRED" })] });
      const events = (await h.eventsOf(seeded.projectId, "flow.completed")).filter((e) => e.payload.flow_token === sent.body.flow_token);
      expect(events).toHaveLength(0);
    } finally {
      h.app.clock.advance(-31 * 24 * 3600_000);
    }
  });
});
