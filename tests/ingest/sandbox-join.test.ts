import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contacts, events, messages, sandboxParticipants } from "@/lib/db/schema";
import { SANDBOX_CHANNEL_ID, SANDBOX_PHONE_NUMBER_ID } from "@/lib/domain/channels/sandbox";
import { settingsFromEnv } from "@/lib/server/runtime";
import type { Seeded } from "../support/app";
import { joinCodeOf, postProvider, receivedFor, startHarness, textA, type Harness } from "./harness";

/** docs/spec/decisions.md "Sandbox": `join <join_code>`, a cap per project, one project per tester at a time. */
let h: Harness;
type Payload = Record<string, any>;
const savedEnv = process.env.SVC_SANDBOX_PARTICIPANT_CAP;
let savedCap: number;

beforeAll(async () => {
  h = await startHarness();
  savedCap = h.app.runtime.settings.sandboxParticipantCap;
});
afterAll(() => h?.close());
afterEach(() => {
  h.app.runtime.settings.sandboxParticipantCap = savedCap;
  if (savedEnv === undefined) delete process.env.SVC_SANDBOX_PARTICIPANT_CAP;
  else process.env.SVC_SANDBOX_PARTICIPANT_CAP = savedEnv;
});

async function say(from: string, text: string) {
  const sent = await h.customer({ from, type: "text", text });
  expect(sent.delivered_status).toBe(200);
  await h.app.runtime.ports.queue.drain();
  return sent.message_id;
}

async function counts() {
  const [m, c, e, p] = await Promise.all([
    h.app.db.select({ id: messages.id }).from(messages),
    h.app.db.select({ id: contacts.id }).from(contacts),
    h.app.db.select({ id: events.id }).from(events),
    h.app.db.select({ id: sandboxParticipants.id }).from(sandboxParticipants),
  ]);
  return { messages: m.length, contacts: c.length, events: e.length, participants: p.length };
}

/** A tester already in the project: each test joins its own, so none depends on another's joins. */
async function joined(seeded: Seeded, from: string) {
  await say(from, `join ${await joinCodeOf(h, seeded.projectId)}`);
  expect(await participantCount(seeded)).toBeGreaterThan(0);
}

async function participantCount(seeded: Seeded): Promise<number> {
  return (await h.app.call("GET", `/projects/${seeded.projectId}`, { key: seeded.key })).body.participant_count;
}

async function projectOfMessage(providerId: string): Promise<string | null> {
  const [row] = await h.app.db.select().from(messages).where(eq(messages.platformMessageId, providerId));
  return row?.projectId ?? null;
}

describe("sandbox join", () => {
  it("an unknown code, and any message from someone who never joined, stores nothing anywhere", async () => {
    const before = await counts();
    await say("15556660001", "join nosuchcode");
    await say("15556660001", "hello?");
    await say("15556660001", "join");
    expect(await counts()).toEqual(before);
  });

  it("`join <code>` (any case, spaces around): participant, contact with opt-in, participant.joined once", async () => {
    const p1 = await h.app.seed({ orgName: "One" });
    const code = await joinCodeOf(h, p1.projectId);
    const joinId = await say("15556660002", `  JOIN ${code.toUpperCase()} `);
    const joined = (await h.eventsOf(p1.projectId, "participant.joined")).map((e) => e.payload as Payload);
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({
      project_id: p1.projectId,
      channel_id: SANDBOX_CHANNEL_ID,
      phone: "+15556660002",
      contact_id: expect.stringMatching(/^ct_/),
      joined_at: expect.any(String),
    });
    expect(await participantCount(p1)).toBe(1);
    const contact = await h.app.call("GET", `/contacts/${joined[0]!.contact_id}`, { key: p1.key });
    expect(contact.body.opt_in).toMatchObject({ status: "active", source: "sandbox_join" });
    // The join message itself is the tester's first message in the project.
    expect(await projectOfMessage(joinId)).toBe(p1.projectId);

    // Joining the same project again: no second participant.joined, no second participant.
    await say("15556660002", `join ${code}`);
    expect(await h.eventsOf(p1.projectId, "participant.joined")).toHaveLength(1);
    expect(await participantCount(p1)).toBe(1);
  });

  it("a joined tester's text that merely looks like a join is an ordinary message", async () => {
    const p1 = await h.app.seed({ orgName: "One" });
    await joined(p1, "15556660003");
    const id = await say("15556660003", "join tomorrow");
    expect(await projectOfMessage(id)).toBe(p1.projectId);
    expect((await receivedFor(h, p1.projectId, id))[0]).toMatchObject({ text: "join tomorrow", type: "text" });
  });

  it("a tester who joins another project moves: the next message goes to the new project", async () => {
    const p1 = await h.app.seed({ orgName: "One" });
    const p2 = await h.app.seed({ orgName: "Two" });
    await joined(p1, "15556660004");
    await say("15556660004", `join ${await joinCodeOf(h, p2.projectId)}`);
    expect(await participantCount(p1)).toBe(0);
    expect(await participantCount(p2)).toBe(1);
    expect(await h.eventsOf(p2.projectId, "participant.joined")).toHaveLength(1);
    const id = await say("15556660004", "where am I?");
    expect(await projectOfMessage(id)).toBe(p2.projectId);
    expect(await receivedFor(h, p1.projectId, id)).toHaveLength(0);
    expect(await receivedFor(h, p2.projectId, id)).toHaveLength(1);

    // And back: a new join, a new participant.joined in p1; the contact id is the same person's.
    await say("15556660004", `join ${await joinCodeOf(h, p1.projectId)}`);
    const joins = (await h.eventsOf(p1.projectId, "participant.joined")).map((e) => e.payload as Payload);
    expect(joins).toHaveLength(2);
    expect(joins[1]!.contact_id).toBe(joins[0]!.contact_id);
    const back = await say("15556660004", "back again");
    expect(await projectOfMessage(back)).toBe(p1.projectId);
  });

  it("the cap (default 5): the 6th tester is refused and nothing of theirs is stored; a member can still rejoin", async () => {
    delete process.env.SVC_SANDBOX_PARTICIPANT_CAP;
    h.app.runtime.settings.sandboxParticipantCap = settingsFromEnv().sandboxParticipantCap;
    expect(h.app.runtime.settings.sandboxParticipantCap).toBe(5);
    const full = await h.app.seed({ orgName: "Full" });
    const p1 = await h.app.seed({ orgName: "One" });
    await joined(p1, "15556660005");
    const code = await joinCodeOf(h, full.projectId);
    for (let i = 1; i <= 5; i++) await say(`1555667000${i}`, `join ${code}`);
    expect(await participantCount(full)).toBe(5);

    const before = await counts();
    const refused = await say("15556670006", `join ${code}`);
    await say("15556670006", "let me in");
    expect(await counts()).toEqual(before);
    expect(await projectOfMessage(refused)).toBeNull();
    expect(await participantCount(full)).toBe(5);
    expect(await h.eventsOf(full.projectId, "participant.joined")).toHaveLength(5);

    // A member re-sending the code is not a 6th participant.
    const again = await say("15556670001", `join ${code}`);
    expect(await projectOfMessage(again)).toBe(full.projectId);

    // A tester of another project asking to move into the full one stays where they are.
    const moved = await say("15556660005", `join ${code}`);
    expect(await projectOfMessage(moved)).toBeNull();
    const stays = await say("15556660005", "still in p1?");
    expect(await projectOfMessage(stays)).toBe(p1.projectId);
  });

  it("SVC_SANDBOX_PARTICIPANT_CAP configures the cap (read into the runtime's settings)", async () => {
    process.env.SVC_SANDBOX_PARTICIPANT_CAP = "1";
    h.app.runtime.settings.sandboxParticipantCap = settingsFromEnv().sandboxParticipantCap;
    expect(h.app.runtime.settings.sandboxParticipantCap).toBe(1);
    const small = await h.app.seed({ orgName: "Small" });
    const code = await joinCodeOf(h, small.projectId);
    await say("15556680001", `join ${code}`);
    await say("15556680002", `join ${code}`);
    expect(await participantCount(small)).toBe(1);
    expect(await h.eventsOf(small.projectId, "participant.joined")).toHaveLength(1);
  });

  it("a join retried by the provider is one participant.joined, and a late retry does not move the tester back", async () => {
    const solo = await h.app.seed({ orgName: "Solo" });
    const p2 = await h.app.seed({ orgName: "Two" });
    const code = await joinCodeOf(h, solo.projectId);
    const envelope = textA(SANDBOX_PHONE_NUMBER_ID, "15556690001", "wamid.JOIN-RETRY", `join ${code}`);
    expect((await postProvider(h, "platform-a", envelope)).status).toBe(200);
    expect((await postProvider(h, "platform-a", envelope)).status).toBe(200);
    await h.app.runtime.ports.queue.drain();
    expect(await h.eventsOf(solo.projectId, "participant.joined")).toHaveLength(1);
    expect(await receivedFor(h, solo.projectId, "wamid.JOIN-RETRY")).toHaveLength(1);

    // The tester moves on; a late provider retry of the old join does not move them back.
    await say("15556690001", `join ${await joinCodeOf(h, p2.projectId)}`);
    expect((await postProvider(h, "platform-a", envelope)).status).toBe(200);
    await h.app.runtime.ports.queue.drain();
    const after = await say("15556690001", "which project?");
    expect(await projectOfMessage(after)).toBe(p2.projectId);
    expect(await h.eventsOf(solo.projectId, "participant.joined")).toHaveLength(1);
  });
});
