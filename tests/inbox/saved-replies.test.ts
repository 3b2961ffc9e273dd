import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderSavedReply } from "@/lib/domain/inbox";
import { unknownVariables } from "@/lib/shared/inbox";
import { newId } from "@/lib/ids";
import { createTestApp, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { conversationIn, inboxProject } from "./support";

/** /saved-replies (docs/api-decisions.md "Team inbox"). */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const GREETING = { shortcut: "greeting", title: "Greeting", body: "Hi {{contact.name}}, this is {{member.name}}." };

describe("POST /saved-replies", () => {
  it("creates one; the title defaults to the shortcut", async () => {
    const project = await inboxProject(app);
    const res = await project.api("POST", "/saved-replies", GREETING);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const at = app.clock.now().toISOString();
    expect(res.body).toEqual({ object: "saved_reply", id: expect.stringMatching(/^srep_[0-9a-z]{26}$/), ...GREETING, created_at: at, updated_at: at });
    const untitled = await project.api("POST", "/saved-replies", { shortcut: "bye", body: "Bye!" });
    expect(untitled.body.title).toBe("bye");
  });

  it("409 conflict for a shortcut the project already uses; another project may use it", async () => {
    const project = await inboxProject(app);
    expect((await project.api("POST", "/saved-replies", GREETING)).status).toBe(200);
    const again = await project.api("POST", "/saved-replies", { ...GREETING, title: "Another" });
    expectError(again, 409, "conflict");
    expect(again.body.message).toContain("'greeting' is already used");
    expect(again.body.issues).toEqual({ shortcut: ["Already used in this project."] });
    expect((await (await inboxProject(app)).api("POST", "/saved-replies", GREETING)).status).toBe(200);
  });

  it("400 for a shortcut that is not a slug, an empty or too long body, and an unknown variable", async () => {
    const project = await inboxProject(app);
    for (const shortcut of ["Greeting", "-x", "a b", "", "x".repeat(41)]) {
      const res = await project.api("POST", "/saved-replies", { ...GREETING, shortcut });
      expectError(res, 400, "invalid_request");
      expect(Object.keys(res.body.issues)).toEqual(["shortcut"]);
    }
    expectError(await project.api("POST", "/saved-replies", { ...GREETING, body: "" }), 400, "invalid_request");
    expectError(await project.api("POST", "/saved-replies", { ...GREETING, body: "x".repeat(4097) }), 400, "invalid_request");
    const unknown = await project.api("POST", "/saved-replies", { ...GREETING, body: "Hi {{contact.email}}" });
    expectError(unknown, 400, "invalid_request");
    expect(unknown.body.issues.body[0]).toContain("Unknown variable {{contact.email}}: use {{contact.name}}, {{contact.phone}}, {{member.name}}.");
    expect((await project.api("POST", "/saved-replies", { shortcut: "x".repeat(40), body: "x".repeat(4096) })).status).toBe(200);
  });
});

describe("GET /saved-replies and /saved-replies/{id}", () => {
  it("lists the project's, newest first, and reads one; another project's is 404 and absent from the list", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const a = await project.api("POST", "/saved-replies", { shortcut: "a", body: "A" });
    app.clock.advance(1000);
    const b = await project.api("POST", "/saved-replies", { shortcut: "b", body: "B" });
    const theirs = await elsewhere.api("POST", "/saved-replies", { shortcut: "c", body: "C" });
    const list = await project.api("GET", "/saved-replies");
    expect(list.body).toEqual({ object: "list", data: [b.body, a.body], has_more: false });
    expect((await project.api("GET", "/saved-replies?limit=1")).body).toMatchObject({ data: [b.body], has_more: true });
    expect((await project.dash("GET", `/saved-replies/${a.body.id}`)).body).toEqual(a.body);
    expectError(await project.api("GET", `/saved-replies/${theirs.body.id}`), 404, "not_found");
    expectError(await project.api("GET", `/saved-replies/${newId("savedReply")}`), 404, "not_found");
  });
});

describe("PATCH /saved-replies/{id}", () => {
  it("changes only the fields given and moves updated_at", async () => {
    const project = await inboxProject(app);
    const created = await project.api("POST", "/saved-replies", GREETING);
    app.clock.advance(5000);
    const res = await project.api("PATCH", `/saved-replies/${created.body.id}`, { body: "Hello {{contact.name}}" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created.body, body: "Hello {{contact.name}}", updated_at: app.clock.now().toISOString() });
    const renamed = await project.api("PATCH", `/saved-replies/${created.body.id}`, { shortcut: "hello", title: "Hello" });
    expect(renamed.body).toMatchObject({ shortcut: "hello", title: "Hello", body: "Hello {{contact.name}}" });
  });

  it("409 for a shortcut another reply uses; keeping its own shortcut is fine", async () => {
    const project = await inboxProject(app);
    await project.api("POST", "/saved-replies", { shortcut: "taken", body: "1" });
    const mine = await project.api("POST", "/saved-replies", { shortcut: "mine", body: "2" });
    expectError(await project.api("PATCH", `/saved-replies/${mine.body.id}`, { shortcut: "taken" }), 409, "conflict");
    expect((await project.api("PATCH", `/saved-replies/${mine.body.id}`, { shortcut: "mine", body: "3" })).status).toBe(200);
    expect((await project.api("GET", `/saved-replies/${mine.body.id}`)).body).toMatchObject({ shortcut: "mine", body: "3" });
  });

  it("404 for another project's reply, which stays as it was; 400 for an unknown variable", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const theirs = await elsewhere.api("POST", "/saved-replies", GREETING);
    expectError(await project.api("PATCH", `/saved-replies/${theirs.body.id}`, { body: "mine now" }), 404, "not_found");
    expect((await elsewhere.api("GET", `/saved-replies/${theirs.body.id}`)).body.body).toBe(GREETING.body);
    expectError(await elsewhere.api("PATCH", `/saved-replies/${theirs.body.id}`, { body: "{{member.email}}" }), 400, "invalid_request");
  });
});

describe("DELETE /saved-replies/{id}", () => {
  it("deletes it (its shortcut is free again); a second delete and another project's are 404", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const created = await project.api("POST", "/saved-replies", GREETING);
    const theirs = await elsewhere.api("POST", "/saved-replies", GREETING);
    expectError(await project.api("DELETE", `/saved-replies/${theirs.body.id}`), 404, "not_found");
    const res = await project.api("DELETE", `/saved-replies/${created.body.id}`);
    expect(res.body).toEqual({ object: "saved_reply", id: created.body.id, deleted: true });
    expectError(await project.api("DELETE", `/saved-replies/${created.body.id}`), 404, "not_found");
    expect((await project.api("GET", "/saved-replies")).body.data).toEqual([]);
    expect((await project.api("POST", "/saved-replies", GREETING)).status).toBe(200);
    expect((await elsewhere.api("GET", `/saved-replies/${theirs.body.id}`)).status).toBe(200);
  });
});

describe("POST /saved-replies/{id}/render", () => {
  it("fills the contact's name and phone and the calling member's name", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded, { name: "Carla", phone: "+14155550100" });
    const reply = await project.api("POST", "/saved-replies", { shortcut: "full", body: "Hi {{contact.name}} ({{ contact.phone }}), {{member.name}} here." });
    const res = await project.dash("POST", `/saved-replies/${reply.body.id}/render`, { conversation_id: conversation.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ object: "saved_reply_render", text: expect.stringMatching(/^Hi Carla \(\+14155550100\), Operator \d+ here\.$/), missing: [] });
  });

  it("missing variables render empty and are listed: no contact name, and an API key has no member name", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded, { name: null, phone: "+14155550101" });
    const reply = await project.api("POST", "/saved-replies", { shortcut: "hi", body: "Hi {{contact.name}}, {{member.name}} here. {{contact.name}}!" });
    const res = await project.api("POST", `/saved-replies/${reply.body.id}/render`, { conversation_id: conversation.id });
    expect(res.body).toEqual({ object: "saved_reply_render", text: "Hi ,  here. !", missing: ["contact.name", "member.name"] });
  });

  it("404 for another project's conversation or reply", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const mine = await project.api("POST", "/saved-replies", GREETING);
    const theirs = await elsewhere.api("POST", "/saved-replies", GREETING);
    const myConversation = await conversationIn(app, project.seeded);
    const theirConversation = await conversationIn(app, elsewhere.seeded);
    expectError(await project.api("POST", `/saved-replies/${mine.body.id}/render`, { conversation_id: theirConversation.conversation.id }), 404, "not_found");
    expectError(await project.api("POST", `/saved-replies/${theirs.body.id}/render`, { conversation_id: myConversation.conversation.id }), 404, "not_found");
  });
});

describe("renderSavedReply and unknownVariables (pure)", () => {
  const values = { "contact.name": "Ana", "contact.phone": "+14155550100", "member.name": "Maya" } as const;

  it("fills every variable, spaces inside the braces allowed, each occurrence", () => {
    expect(renderSavedReply("{{contact.name}}/{{ contact.phone }}/{{member.name}}/{{contact.name}}", values)).toEqual({
      text: "Ana/+14155550100/Maya/Ana",
      missing: [],
    });
  });

  it("null and blank values are missing, once each, in order of first use", () => {
    expect(renderSavedReply("{{member.name}} {{contact.name}} {{member.name}}", { ...values, "contact.name": "  ", "member.name": null })).toEqual({
      text: "  ",
      missing: ["member.name", "contact.name"],
    });
  });

  it("text without variables, single braces and unknown names are left as written", () => {
    expect(renderSavedReply("Plain {text} {{other}}", values)).toEqual({ text: "Plain {text} {{other}}", missing: [] });
    expect(unknownVariables("{{other}} {{contact.name}} {{ other }} {{member.email}}")).toEqual(["other", "member.email"]);
    expect(unknownVariables("Hi {{contact.name}}")).toEqual([]);
  });
});
