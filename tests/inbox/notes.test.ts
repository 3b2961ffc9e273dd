import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditEvents, conversationNotes, conversationReads } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { createTestApp, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { conversationIn, inboxProject, messageIn } from "./support";

/** GET and POST /conversations/{id}/notes (docs/api-decisions.md "Team inbox"). */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

describe("POST /conversations/{id}/notes", () => {
  it("a member's note: author is the member, audited with the note's id and not its text", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const res = await project.dash("POST", `/conversations/${conversation.id}/notes`, { body: "VIP: refund approved by Maya" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      object: "note",
      id: expect.stringMatching(/^note_[0-9a-z]{26}$/),
      conversation_id: conversation.id,
      author: { type: "member", id: project.member.userId, name: expect.any(String) },
      body: "VIP: refund approved by Maya",
      created_at: app.clock.now().toISOString(),
    });
    const entries = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.projectId, project.seeded.projectId), eq(auditEvents.action, "conversation.note_added")));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ targetType: "conversation", targetId: conversation.id, details: { note_id: res.body.id } });
    expect(JSON.stringify(entries[0])).not.toContain("refund approved");
  });

  it("an API key's note: author is the key", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const res = await project.api("POST", `/conversations/${conversation.id}/notes`, { body: "From the CRM" });
    expect(res.body.author).toEqual({ type: "api_key", id: project.seeded.keyId, name: "test" });
  });

  it("400 for an empty or blank body, one over 4,000 characters, or an unknown field", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    for (const body of [{ body: "" }, { body: "   " }, { body: "x".repeat(4001) }, {}, { body: "ok", pinned: true }]) {
      expectError(await project.api("POST", `/conversations/${conversation.id}/notes`, body), 400, "invalid_request");
    }
    expect((await project.api("POST", `/conversations/${conversation.id}/notes`, { body: "x".repeat(4000) })).status).toBe(200);
  });

  it("404 for another project's conversation and an unknown one; nothing is written", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const theirs = await conversationIn(app, elsewhere.seeded);
    for (const id of [theirs.conversation.id, newId("conversation")]) {
      expectError(await project.api("POST", `/conversations/${id}/notes`, { body: "hi" }), 404, "not_found");
    }
    expect(await app.db.select().from(conversationNotes).where(eq(conversationNotes.conversationId, theirs.conversation.id))).toEqual([]);
  });
});

describe("GET /conversations/{id}/notes", () => {
  it("oldest first, each with its author, paged with starting_after", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const written: string[] = [];
    for (const [i, as] of (["dash", "api", "dash"] as const).entries()) {
      app.clock.advance(1000);
      const res = await project[as]("POST", `/conversations/${conversation.id}/notes`, { body: `note ${i}` });
      written.push(res.body.id);
    }
    const all = await project.api("GET", `/conversations/${conversation.id}/notes`);
    expect(all.status).toBe(200);
    expect(all.body.object).toBe("list");
    expect(all.body.data.map((n: { body: string }) => n.body)).toEqual(["note 0", "note 1", "note 2"]);
    expect(all.body.data.map((n: { author: { type: string } }) => n.author.type)).toEqual(["member", "api_key", "member"]);
    const first = await project.api("GET", `/conversations/${conversation.id}/notes?limit=2`);
    expect(first.body.data.map((n: { id: string }) => n.id)).toEqual(written.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await project.api("GET", `/conversations/${conversation.id}/notes?limit=2&starting_after=${written[1]}`);
    expect(second.body.data.map((n: { id: string }) => n.id)).toEqual(written.slice(2));
    expect(second.body.has_more).toBe(false);
  });

  it("only this conversation's notes; a note of another conversation is an unknown cursor", async () => {
    const project = await inboxProject(app);
    const one = await conversationIn(app, project.seeded);
    const two = await conversationIn(app, project.seeded);
    await project.api("POST", `/conversations/${one.conversation.id}/notes`, { body: "about one" });
    const other = await project.api("POST", `/conversations/${two.conversation.id}/notes`, { body: "about two" });
    const list = await project.api("GET", `/conversations/${one.conversation.id}/notes`);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual(["about one"]);
    expectError(await project.api("GET", `/conversations/${one.conversation.id}/notes?starting_after=${other.body.id}`), 400, "invalid_request");
  });

  it("404 for another project's conversation", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const theirs = await conversationIn(app, elsewhere.seeded);
    await elsewhere.api("POST", `/conversations/${theirs.conversation.id}/notes`, { body: "private" });
    expectError(await project.api("GET", `/conversations/${theirs.conversation.id}/notes`), 404, "not_found");
  });
});

describe("erasing the contact (DELETE /contacts/{id})", () => {
  it("deletes its conversation's notes and read positions, and reports notes among the erased data", async () => {
    const project = await inboxProject(app);
    const { contact, conversation } = await conversationIn(app, project.seeded);
    const kept = await conversationIn(app, project.seeded);
    await messageIn(app, project.seeded, conversation);
    await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: project.member.userId });
    await project.dash("POST", `/conversations/${conversation.id}/notes`, { body: "Customer's address is 12 Elm St" });
    await project.dash("POST", `/conversations/${conversation.id}/read`);
    const other = await project.dash("POST", `/conversations/${kept.conversation.id}/notes`, { body: "another customer" });

    const erased = await project.dash("DELETE", `/contacts/${contact.id}`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body.deleted_data_types).toEqual(["profile", "messages", "notes"]);
    expect(await app.db.select().from(conversationNotes).where(eq(conversationNotes.conversationId, conversation.id))).toEqual([]);
    expect(await app.db.select().from(conversationReads).where(eq(conversationReads.conversationId, conversation.id))).toEqual([]);
    expectError(await project.api("GET", `/conversations/${conversation.id}/notes`), 404, "not_found");
    // Another contact's conversation keeps its notes.
    const remaining = await project.api("GET", `/conversations/${kept.conversation.id}/notes`);
    expect(remaining.body.data.map((n: { id: string }) => n.id)).toEqual([other.body.id]);
  });

  it("a contact without notes does not report notes", async () => {
    const project = await inboxProject(app);
    const { contact, conversation } = await conversationIn(app, project.seeded);
    await messageIn(app, project.seeded, conversation);
    const erased = await project.dash("DELETE", `/contacts/${contact.id}`);
    expect(erased.body.deleted_data_types).not.toContain("notes");
  });
});
