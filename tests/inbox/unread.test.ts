import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import { createTestApp, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { conversationIn, inboxProject, messageIn, teammate } from "./support";

/**
 * unread_count on the Conversation and the dashboard's POST …/conversations/{id}/read
 * (docs/api-decisions.md "Team inbox"): customer messages stored after the member's last read.
 */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("unread_count", () => {
  it("counts inbound messages after the member's last read; outbound ones never count", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const get = async () => (await project.dash("GET", `/conversations/${conversation.id}`)).body.unread_count;
    expect(await get()).toBe(0);
    await messageIn(app, project.seeded, conversation);
    app.clock.advance(1000);
    await messageIn(app, project.seeded, conversation);
    await messageIn(app, project.seeded, conversation, { direction: "outbound" });
    // Never read: every customer message is unread.
    expect(await get()).toBe(2);

    app.clock.advance(1000);
    const read = await project.dash("POST", `/conversations/${conversation.id}/read`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ object: "conversation", id: conversation.id, unread_count: 0 });
    expect(await get()).toBe(0);

    app.clock.advance(1000);
    await messageIn(app, project.seeded, conversation, { direction: "outbound" });
    expect(await get()).toBe(0);
    await messageIn(app, project.seeded, conversation);
    expect(await get()).toBe(1);
  });

  it("a customer message stored after the read counts even when the provider dated it earlier", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const before = new Date(app.clock.now().getTime() - 60_000);
    await project.dash("POST", `/conversations/${conversation.id}/read`);
    app.clock.advance(1000);
    await messageIn(app, project.seeded, conversation, { sentAt: before });
    expect((await project.dash("GET", `/conversations/${conversation.id}`)).body.unread_count).toBe(1);
  });

  it("is each member's own: one member reading leaves the other's count", async () => {
    const project = await inboxProject(app);
    const other = await teammate(app, project);
    const { conversation } = await conversationIn(app, project.seeded);
    await messageIn(app, project.seeded, conversation);
    app.clock.advance(1000);
    await project.dash("POST", `/conversations/${conversation.id}/read`);
    expect((await project.dash("GET", `/conversations/${conversation.id}`)).body.unread_count).toBe(0);
    expect((await project.dash("GET", `/conversations/${conversation.id}`, undefined, other)).body.unread_count).toBe(1);
  });

  it("is null for an API key", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    await messageIn(app, project.seeded, conversation);
    expect((await project.api("GET", `/conversations/${conversation.id}`)).body.unread_count).toBeNull();
    expect((await project.api("GET", "/conversations")).body.data[0].unread_count).toBeNull();
  });

  it("in the list: each conversation's own count, for a whole page", async () => {
    const project = await inboxProject(app);
    const made = [];
    for (const inbound of [0, 1, 3]) {
      const { conversation } = await conversationIn(app, project.seeded);
      for (let i = 0; i < inbound; i++) await messageIn(app, project.seeded, conversation);
      made.push([conversation.id, inbound] as const);
    }
    const list = await project.dash("GET", "/conversations?limit=100");
    const counts = Object.fromEntries((list.body.data as { id: string; unread_count: number }[]).map((c) => [c.id, c.unread_count]));
    expect(counts).toEqual(Object.fromEntries(made));
    // And the unread count agrees: two conversations have unread messages.
    expect((await project.dash("GET", "/conversations/counts")).body.unread).toBe(2);
    await project.dash("POST", `/conversations/${made[2]![0]}/read`);
    expect((await project.dash("GET", "/conversations/counts")).body.unread).toBe(1);
  });

  it("a read never moves back: an older read (clock behind) keeps the later one", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    await project.dash("POST", `/conversations/${conversation.id}/read`);
    app.clock.advance(-10_000);
    try {
      await messageIn(app, project.seeded, conversation);
      await project.dash("POST", `/conversations/${conversation.id}/read`);
    } finally {
      app.clock.advance(10_000);
    }
    // The message was stored before the first read: read.
    expect((await project.dash("GET", `/conversations/${conversation.id}`)).body.unread_count).toBe(0);
  });
});

describe("POST /api/dashboard/projects/{id}/conversations/{id}/read", () => {
  it("404 for another project's conversation and an unknown id", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const theirs = await conversationIn(app, elsewhere.seeded);
    expectError(await project.dash("POST", `/conversations/${theirs.conversation.id}/read`), 404, "not_found");
    expectError(await project.dash("POST", `/conversations/${newId("conversation")}/read`), 404, "not_found");
  });

  it("is not served on /api/v1: read state is a member's", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const res = await project.api("POST", `/conversations/${conversation.id}/read`);
    expect(res.status).toBe(404);
    expect(res.headers.get("svc-version")).toBeNull();
  });
});
