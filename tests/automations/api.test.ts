import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../messages/support";
import { flowsProject, insertAutomation, runsOf, say, textsTo } from "./support";

/** GET /automations, GET /automations/{id}, PATCH /automations/{id}, GET /automations/{id}/runs. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const AUTOMATION_KEYS = ["object", "id", "key", "name", "trigger", "steps", "active", "position", "created_at", "updated_at"].sort();
const RUN_KEYS = [
  "object",
  "id",
  "automation_id",
  "conversation_id",
  "contact_id",
  "trigger_message_id",
  "status",
  "step_index",
  "step",
  "variables",
  "error",
  "wait_until",
  "steps",
  "started_at",
  "ended_at",
].sort();

async function threeAutomations(projectId: string) {
  // Inserted out of order: the list follows position (config order), not creation.
  const second = await insertAutomation(
    h.app,
    projectId,
    { key: "second", name: "Second", trigger: { type: "KEYWORD", keywords: ["two"] }, steps: [{ send_reply: { text: "2" } }] },
    1,
  );
  const first = await insertAutomation(
    h.app,
    projectId,
    {
      key: "first",
      name: "First",
      trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["one"] },
      steps: [{ send_reply: { text: "1", buttons: [{ id: "a", title: "A" }] } }, { delay: { minutes: 5 } }],
    },
    0,
  );
  const third = await insertAutomation(
    h.app,
    projectId,
    { key: "third", name: "Third", trigger: { type: "ANY_MESSAGE" }, steps: [{ pause_replies: {} }], active: false },
    2,
  );
  return { first, second, third };
}

describe("GET /automations", () => {
  it("lists in config order with the spec's fields, pages by cursor, filters by active", async () => {
    const seeded = await h.app.seed();
    const { first, second, third } = await threeAutomations(seeded.projectId);
    const all = await h.app.call("GET", "/automations", { key: seeded.key });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: "list", has_more: false });
    expect(all.body.data.map((a: { key: string }) => a.key)).toEqual(["first", "second", "third"]);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(AUTOMATION_KEYS);
    expect(all.body.data[0]).toEqual({
      object: "automation",
      id: first.id,
      key: "first",
      name: "First",
      trigger: { type: "KEYWORD", match_mode: "EXACT", keywords: ["one"] },
      steps: [{ send_reply: { text: "1", buttons: [{ id: "a", title: "A" }] } }, { delay: { minutes: 5 } }],
      active: true,
      position: 0,
      created_at: first.createdAt.toISOString(),
      updated_at: first.updatedAt.toISOString(),
    });

    const page1 = await h.app.call("GET", "/automations?limit=2", { key: seeded.key });
    expect(page1.body.data.map((a: { id: string }) => a.id)).toEqual([first.id, second.id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await h.app.call("GET", `/automations?limit=2&starting_after=${second.id}`, { key: seeded.key });
    expect(page2.body.data.map((a: { id: string }) => a.id)).toEqual([third.id]);
    expect(page2.body.has_more).toBe(false);

    const inactive = await h.app.call("GET", "/automations?active=false", { key: seeded.key });
    expect(inactive.body.data.map((a: { id: string }) => a.id)).toEqual([third.id]);
    const unknown = await h.app.call("GET", "/automations?starting_after=auto_nope", { key: seeded.key });
    expect(unknown.status).toBe(400);
  });

  it("needs config:read; another project's automations are not listed", async () => {
    const seeded = await h.app.seed();
    await threeAutomations(seeded.projectId);
    const other = await h.app.addProject(seeded);
    expect((await h.app.call("GET", "/automations", { key: other.key })).body.data).toEqual([]);
    const wrongScope = await h.app.addKey(seeded, ["flows:read", "functions:read"]);
    const refused = await h.app.call("GET", "/automations", { key: wrongScope });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "config:read" });
  });
});

describe("GET /automations/{id}", () => {
  it("answers the automation; another project's id is a 404", async () => {
    const seeded = await h.app.seed();
    const { second } = await threeAutomations(seeded.projectId);
    const got = await h.app.call("GET", `/automations/${second.id}`, { key: seeded.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ object: "automation", id: second.id, key: "second", trigger: { type: "KEYWORD", keywords: ["two"] } });
    const other = await h.app.addProject(seeded);
    const hidden = await h.app.call("GET", `/automations/${second.id}`, { key: other.key });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe("not_found");
    expect((await h.app.call("GET", `/automations/${second.id}/runs`, { key: other.key })).status).toBe(404);
    expect((await h.app.call("PATCH", `/automations/${second.id}`, { key: other.key, body: { active: false } })).status).toBe(404);
  });
});

describe("PATCH /automations/{id}", () => {
  it("active false stops it starting runs; true starts them again", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "k",
      name: "K",
      trigger: { type: "KEYWORD", keywords: ["ping"] },
      steps: [{ send_reply: { text: "pong" } }],
    });
    h.app.clock.advance(1000);
    const off = await h.app.call("PATCH", `/automations/${automation.id}`, { key: seeded.key, body: { active: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: automation.id, active: false });
    expect(off.body.updated_at).not.toBe(automation.updatedAt.toISOString());
    await say(h, tester, "ping");
    expect(textsTo(h, tester)).toEqual([]);
    expect(await runsOf(h.app, automation.id)).toEqual([]);

    expect((await h.app.call("PATCH", `/automations/${automation.id}`, { key: seeded.key, body: { active: true } })).body.active).toBe(true);
    await say(h, tester, "ping");
    expect(textsTo(h, tester)).toEqual(["pong"]);

    const readOnly = await h.app.addKey(seeded, ["config:read"]);
    const refused = await h.app.call("PATCH", `/automations/${automation.id}`, { key: readOnly, body: { active: false } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "insufficient_scope", required_scope: "config:write" });
  });
});

describe("GET /automations/{id}/runs", () => {
  it("newest first with the spec's fields (plus step, wait_until, trigger_message_id and steps), filtered by status", async () => {
    const { seeded, tester } = await flowsProject(h);
    const automation = await insertAutomation(h.app, seeded.projectId, {
      key: "k",
      name: "K",
      trigger: { type: "KEYWORD", keywords: ["go"] },
      steps: [{ send_reply: { text: "{{vars.x}}" } }, { delay: { minutes: 5 } }],
    });
    await say(h, tester, "go"); // fails: the reply is empty
    await say(h, tester, "go"); // an empty reply again: FAILED
    const readOnly = await h.app.addKey(seeded, ["config:read"]);
    const runs = await h.app.call("GET", `/automations/${automation.id}/runs`, { key: readOnly });
    expect(runs.status).toBe(200);
    expect(runs.body.data).toHaveLength(2);
    const [newest, oldest] = runs.body.data;
    expect(newest.id > oldest.id).toBe(true);
    expect(Object.keys(newest).sort()).toEqual(RUN_KEYS);
    const [row] = (await runsOf(h.app, automation.id)).slice(-1);
    expect(newest).toEqual({
      object: "automation_run",
      id: row!.id,
      automation_id: automation.id,
      conversation_id: row!.conversationId,
      contact_id: row!.contactId,
      trigger_message_id: row!.triggerMessageId,
      status: "FAILED",
      step_index: 0,
      step: "send_reply",
      variables: {},
      error: { code: "empty_reply", message: "The reply's text is empty once its placeholders are filled; nothing was sent." },
      wait_until: null,
      steps: [
        {
          index: 0,
          type: "send_reply",
          status: "failed",
          started_at: row!.endedAt!.toISOString(),
          ended_at: row!.endedAt!.toISOString(),
          duration_ms: expect.any(Number),
          variables_after: {},
          message_id: null,
          invocation_id: null,
          error: { code: "empty_reply", message: "The reply's text is empty once its placeholders are filled; nothing was sent." },
        },
      ],
      started_at: row!.startedAt.toISOString(),
      ended_at: row!.endedAt!.toISOString(),
    });

    const waiting = await insertAutomation(h.app, seeded.projectId, {
      key: "w",
      name: "W",
      trigger: { type: "KEYWORD", keywords: ["wait"] },
      steps: [{ delay: { minutes: 5 } }],
    });
    await say(h, tester, "wait");
    const waitingRuns = await h.app.call("GET", `/automations/${waiting.id}/runs?status=WAITING`, { key: seeded.key });
    expect(waitingRuns.body.data).toHaveLength(1);
    expect(waitingRuns.body.data[0]).toMatchObject({ status: "WAITING", step: "delay", step_index: 0, ended_at: null });
    expect(Date.parse(waitingRuns.body.data[0].wait_until)).toBe(h.app.clock.now().getTime() + 5 * 60_000);
    expect((await h.app.call("GET", `/automations/${waiting.id}/runs?status=COMPLETED`, { key: seeded.key })).body.data).toEqual([]);
    expect((await h.app.call("GET", `/automations/${waiting.id}/runs?status=DONE`, { key: seeded.key })).status).toBe(400);
  });
});
