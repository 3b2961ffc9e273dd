import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversations } from "@/lib/db/schema";
import { createTestApp, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { HOUR, conversationIn, ids, inboxProject, messageIn, teammate } from "./support";

/**
 * GET /conversations?view=…&assignee=…&window=… and GET /conversations/counts (docs/api-decisions.md
 * "Team inbox"). Each test seeds a project holding one conversation in each state and asserts exactly
 * which come back.
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

/** One conversation per state, in a fresh project; the member holds `mine`, a teammate `theirs`. */
async function seedStates() {
  const project = await inboxProject(app);
  const other = await teammate(app, project);
  const now = app.clock.now().getTime();
  const make = async (name: string, lastInboundHoursAgo: number | null) => {
    const { conversation } = await conversationIn(app, project.seeded, { name });
    if (lastInboundHoursAgo !== null) await messageIn(app, project.seeded, conversation, { sentAt: new Date(now - lastInboundHoursAgo * HOUR) });
    return conversation;
  };
  const fresh = await make("Fresh", 1); // window open, closes in 23 h
  const closing = await make("Closing", 23.5); // open, closes in 30 min
  const expired = await make("Expired", 25); // closed
  const silent = await make("Silent", null); // the customer never wrote: closed
  const handedOff = await make("Handed off", 2);
  await app.db.update(conversations).set({ handoffStatus: "HUMAN_ACTIVE", handoffAt: app.clock.now() }).where(eq(conversations.id, handedOff.id));
  // Assigned without a handoff (handoff: false), so needs_person stays exactly the handed-off one.
  const mine = await make("Mine", 30);
  expect((await project.dash("POST", `/conversations/${mine.id}/assignment`, { assignee_id: project.member.userId, handoff: false })).status).toBe(200);
  const theirs = await make("Theirs", 0.5);
  expect((await project.api("POST", `/conversations/${theirs.id}/assignment`, { assignee_id: other.userId, handoff: false })).status).toBe(200);
  // An outbound message alone does not open the window.
  const outboundOnly = await make("Outbound only", null);
  await messageIn(app, project.seeded, outboundOnly, { direction: "outbound" });
  const all = [fresh, closing, expired, silent, handedOff, mine, theirs, outboundOnly].map((c) => c.id).sort();
  return { project, other, fresh, closing, expired, silent, handedOff, mine, theirs, outboundOnly, all };
}

const sorted = (...list: { id: string }[]) => list.map((c) => c.id).sort();

describe("GET /conversations?view=", () => {
  it("all (and no view): every conversation of the project", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=all"))).toEqual(s.all);
    expect(ids(await s.project.api("GET", "/conversations?limit=100"))).toEqual(s.all);
  });

  it("open: the customer wrote within 24 h on the last channel", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=open"))).toEqual(sorted(s.fresh, s.closing, s.handedOff, s.theirs));
  });

  it("needs_person: handoff HUMAN_ACTIVE", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=needs_person"))).toEqual(sorted(s.handedOff));
  });

  it("mine: assigned to the calling member, and to no one else", async () => {
    const s = await seedStates();
    expect(ids(await s.project.dash("GET", "/conversations?limit=100&view=mine"))).toEqual(sorted(s.mine));
    expect(ids(await s.project.dash("GET", "/conversations?limit=100&view=mine", undefined, s.other))).toEqual(sorted(s.theirs));
  });

  it("mine with an API key: 422 saying to use assignee=<member id>", async () => {
    const s = await seedStates();
    const res = await s.project.api("GET", "/conversations?view=mine");
    expectError(res, 422, "unprocessable");
    expect(res.body.message).toContain("assignee=<member user id>");
  });

  it("unassigned: no assignee", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=unassigned"))).toEqual(
      sorted(s.fresh, s.closing, s.expired, s.silent, s.handedOff, s.outboundOnly),
    );
  });

  it("400 naming view for an unknown view", async () => {
    const s = await seedStates();
    const res = await s.project.api("GET", "/conversations?view=urgent");
    expectError(res, 400, "invalid_request");
    expect(res.body.issues.view).toEqual(["Expected all, open, needs_person, mine or unassigned."]);
  });
});

describe("GET /conversations?assignee=", () => {
  it("a member's user id: theirs only; none: the unassigned", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", `/conversations?limit=100&assignee=${s.other.userId}`))).toEqual(sorted(s.theirs));
    expect(ids(await s.project.api("GET", `/conversations?limit=100&assignee=${s.project.member.userId}`))).toEqual(sorted(s.mine));
    expect(ids(await s.project.api("GET", "/conversations?limit=100&assignee=none"))).toEqual(
      sorted(s.fresh, s.closing, s.expired, s.silent, s.handedOff, s.outboundOnly),
    );
    expect(ids(await s.project.api("GET", "/conversations?limit=100&assignee=usr_unknown"))).toEqual([]);
  });
});

describe("GET /conversations?window=", () => {
  it("open: within 24 h of the customer's last message", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&window=open"))).toEqual(sorted(s.fresh, s.closing, s.handedOff, s.theirs));
  });

  it("closing: open, and closes within the hour", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&window=closing"))).toEqual(sorted(s.closing));
  });

  it("closed: past 24 h, or the customer never wrote", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&window=closed"))).toEqual(sorted(s.expired, s.silent, s.mine, s.outboundOnly));
  });

  it("moves with the clock: an hour later the closing one is closed and the fresh one still open", async () => {
    const s = await seedStates();
    app.clock.advance(HOUR);
    try {
      expect(ids(await s.project.api("GET", "/conversations?limit=100&window=closing"))).toEqual([]);
      expect(ids(await s.project.api("GET", "/conversations?limit=100&window=open"))).toEqual(sorted(s.fresh, s.handedOff, s.theirs));
    } finally {
      app.clock.advance(-HOUR);
    }
  });

  it("agrees with each conversation's messaging_window", async () => {
    const s = await seedStates();
    const list = await s.project.api("GET", "/conversations?limit=100");
    const open = (list.body.data as { id: string; messaging_window: { open: boolean } }[]).filter((c) => c.messaging_window.open).map((c) => c.id);
    expect(open.sort()).toEqual(ids(await s.project.api("GET", "/conversations?limit=100&window=open")));
  });
});

describe("views and filters combine (AND)", () => {
  it("view=unassigned&window=open, view=open&handoff=HUMAN_ACTIVE, view=mine&window=open, q + assignee", async () => {
    const s = await seedStates();
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=unassigned&window=open"))).toEqual(sorted(s.fresh, s.closing, s.handedOff));
    expect(ids(await s.project.api("GET", "/conversations?limit=100&view=open&handoff=HUMAN_ACTIVE"))).toEqual(sorted(s.handedOff));
    expect(ids(await s.project.dash("GET", "/conversations?limit=100&view=mine&window=open"))).toEqual([]);
    expect(ids(await s.project.api("GET", `/conversations?limit=100&q=their&assignee=${s.other.userId}`))).toEqual(sorted(s.theirs));
    expect(ids(await s.project.api("GET", "/conversations?limit=100&q=fresh&assignee=none&window=closed"))).toEqual([]);
  });

  it("pages under a view: limit and starting_after walk exactly the view", async () => {
    const s = await seedStates();
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 10; page++) {
      const res = await s.project.api("GET", `/conversations?view=unassigned&limit=2${cursor}`);
      seen.push(...(res.body.data as { id: string }[]).map((c) => c.id));
      if (!res.body.has_more) break;
      cursor = `&starting_after=${seen.at(-1)}`;
    }
    expect(seen.sort()).toEqual(sorted(s.fresh, s.closing, s.expired, s.silent, s.handedOff, s.outboundOnly));
  });

  it("another project's conversations never appear in any view", async () => {
    const s = await seedStates();
    const elsewhere = await inboxProject(app);
    for (const view of ["all", "open", "needs_person", "mine", "unassigned"]) {
      expect(ids(await elsewhere.dash("GET", `/conversations?limit=100&view=${view}`))).toEqual([]);
    }
    expect(s.all.length).toBe(8);
  });
});

describe("GET /conversations/counts", () => {
  it("for a member: every view's count, mine and unread their own", async () => {
    const s = await seedStates();
    const res = await s.project.dash("GET", "/conversations/counts");
    expect(res.status).toBe(200);
    // Unread: every conversation with an inbound message the member has not read (the outbound-only and silent ones have none).
    expect(res.body).toEqual({ object: "conversation_counts", all: 8, open: 4, needs_person: 1, mine: 1, unassigned: 6, unread: 6 });
    const theirs = await s.project.dash("GET", "/conversations/counts", undefined, s.other);
    expect(theirs.body).toMatchObject({ mine: 1, unread: 6 });
  });

  it("for an API key: mine and unread are null", async () => {
    const s = await seedStates();
    const res = await s.project.api("GET", "/conversations/counts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ object: "conversation_counts", all: 8, open: 4, needs_person: 1, mine: null, unassigned: 6, unread: null });
  });

  it("under the list's filters: window, assignee, handoff, q", async () => {
    const s = await seedStates();
    expect((await s.project.api("GET", "/conversations/counts?window=closed")).body).toMatchObject({ all: 4, open: 0, needs_person: 0, unassigned: 3 });
    expect((await s.project.api("GET", "/conversations/counts?window=closing")).body).toMatchObject({ all: 1, open: 1 });
    expect((await s.project.api("GET", `/conversations/counts?assignee=${s.other.userId}`)).body).toMatchObject({ all: 1, open: 1, unassigned: 0 });
    expect((await s.project.api("GET", "/conversations/counts?handoff=HUMAN_ACTIVE")).body).toMatchObject({ all: 1, needs_person: 1 });
    expect((await s.project.dash("GET", "/conversations/counts?q=mine")).body).toMatchObject({ all: 1, mine: 1, unassigned: 0 });
  });

  it("the counts equal the lengths of the view lists", async () => {
    const s = await seedStates();
    const counts = (await s.project.dash("GET", "/conversations/counts")).body;
    for (const view of ["all", "open", "needs_person", "mine", "unassigned"] as const) {
      expect(ids(await s.project.dash("GET", `/conversations?limit=100&view=${view}`)).length, view).toBe(counts[view]);
    }
  });

  it("an empty project counts zeros", async () => {
    const project = await inboxProject(app);
    expect((await project.dash("GET", "/conversations/counts")).body).toEqual({
      object: "conversation_counts",
      all: 0,
      open: 0,
      needs_person: 0,
      mine: 0,
      unassigned: 0,
      unread: 0,
    });
  });
});
