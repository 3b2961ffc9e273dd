import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditEvents, conversations, users } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { createTestApp, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { conversationIn, inboxProject, teammate } from "./support";

/** POST /conversations/{id}/assignment (docs/api-decisions.md "Team inbox"). */

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const auditOf = (projectId: string, conversationId: string) =>
  app.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.projectId, projectId), eq(auditEvents.targetId, conversationId)));

describe("POST /conversations/{id}/assignment", () => {
  it("assigning to a member turns the handoff on, fills assignee, assigned_at and assigned_by, and is audited", async () => {
    const project = await inboxProject(app);
    const agent = await teammate(app, project);
    const { conversation } = await conversationIn(app, project.seeded);
    const res = await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: agent.userId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [agentRow] = await app.db.select().from(users).where(eq(users.id, agent.userId));
    const [meRow] = await app.db.select().from(users).where(eq(users.id, project.member.userId));
    const at = app.clock.now().toISOString();
    expect(res.body).toMatchObject({
      id: conversation.id,
      assignee: { id: agent.userId, name: agentRow!.name, email: agent.email },
      assigned_at: at,
      assigned_by: { type: "member", id: project.member.userId, name: meRow!.name },
      handoff: { status: "HUMAN_ACTIVE", reason: `Assigned to ${agentRow!.name}`, handoff_at: at },
      ai_can_answer: false,
    });
    expect((await project.api("GET", `/conversations/${conversation.id}`)).body).toMatchObject({
      assignee: res.body.assignee,
      assigned_by: res.body.assigned_by,
    });
    const entries = await auditOf(project.seeded.projectId, conversation.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "conversation.assigned",
      targetType: "conversation",
      actorType: "user",
      actorId: project.member.userId,
      details: { from: null, to: agent.userId, handoff_turned_on: true },
    });
  });

  it("handoff: false assigns and leaves the handoff off", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    const res = await project.api("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: project.member.userId, handoff: false });
    expect(res.status).toBe(200);
    expect(res.body.handoff.status).toBe("AI_ACTIVE");
    expect(res.body.assignee.id).toBe(project.member.userId);
    // An API key assigned it: its name (the seeded key's is "test") is kept.
    expect(res.body.assigned_by).toEqual({ type: "api_key", id: project.seeded.keyId, name: "test" });
    const [entry] = await auditOf(project.seeded.projectId, conversation.id);
    expect(entry).toMatchObject({ actorType: "api_key", details: { from: null, to: project.member.userId, handoff_turned_on: false } });
  });

  it("an already handed-off conversation keeps its handoff start and reason when assigned", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    await project.api("POST", `/conversations/${conversation.id}/handoff`, { enabled: true, reason: "Angry customer" });
    const startedAt = app.clock.now().toISOString();
    app.clock.advance(60_000);
    const res = await project.api("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: project.member.userId });
    expect(res.body.handoff).toEqual({ status: "HUMAN_ACTIVE", reason: "Angry customer", handoff_at: startedAt });
    const [entry] = await auditOf(project.seeded.projectId, conversation.id);
    expect(entry!.details).toMatchObject({ handoff_turned_on: false });
  });

  it("reassigning records from and to; unassigning (null) clears the assignee and leaves the handoff on", async () => {
    const project = await inboxProject(app);
    const agent = await teammate(app, project);
    const { conversation } = await conversationIn(app, project.seeded);
    await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: project.member.userId });
    await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: agent.userId });
    const res = await project.dash("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assignee: null, assigned_at: null, assigned_by: null, handoff: { status: "HUMAN_ACTIVE" } });
    const [row] = await app.db.select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(row).toMatchObject({ assigneeUserId: null, assignedAt: null, assignedByType: null, assignedById: null, assignedByName: null });
    const details = (await auditOf(project.seeded.projectId, conversation.id)).map((e) => e.details);
    expect(details).toEqual(
      expect.arrayContaining([
        { from: null, to: project.member.userId, handoff_turned_on: true },
        { from: project.member.userId, to: agent.userId, handoff_turned_on: false },
        { from: agent.userId, to: null, handoff_turned_on: false },
      ]),
    );
  });

  it("422 for an unknown user id, and for a user of another organization; nothing changes", async () => {
    const project = await inboxProject(app);
    const elsewhere = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    for (const id of [newId("user"), elsewhere.member.userId]) {
      const res = await project.api("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: id });
      expectError(res, 422, "unprocessable");
      expect(res.body.message).toContain(`No member '${id}' in this project's organization`);
      expect(res.body.issues).toEqual({ assignee_id: ["Not a member of this organization."] });
    }
    const [row] = await app.db.select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(row).toMatchObject({ assigneeUserId: null, handoffStatus: "AI_ACTIVE" });
    expect(await auditOf(project.seeded.projectId, conversation.id)).toEqual([]);
  });

  it("404 for another project's conversation (same organization too) and an unknown id", async () => {
    const project = await inboxProject(app);
    const sibling = await app.addProject(project.seeded);
    const theirs = await conversationIn(app, { ...project.seeded, projectId: sibling.projectId });
    for (const id of [theirs.conversation.id, newId("conversation")]) {
      expectError(await project.api("POST", `/conversations/${id}/assignment`, { assignee_id: project.member.userId }), 404, "not_found");
    }
    const [row] = await app.db.select().from(conversations).where(eq(conversations.id, theirs.conversation.id));
    expect(row!.assigneeUserId).toBeNull();
  });

  it("400 without assignee_id, or with an unknown field", async () => {
    const project = await inboxProject(app);
    const { conversation } = await conversationIn(app, project.seeded);
    expectError(await project.api("POST", `/conversations/${conversation.id}/assignment`, {}), 400, "invalid_request");
    expectError(await project.api("POST", `/conversations/${conversation.id}/assignment`, { assignee_id: null, note: "x" }), 400, "invalid_request");
  });
});
