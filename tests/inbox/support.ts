import { messages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { ensureConversation, touchConversations } from "@/lib/domain/conversations";
import type { CallResult, Seeded, TestApp } from "../support/app";
import { addOperator, dash, type Operator } from "../dashboard/support";

/** The team inbox's suites (tests/inbox): a project with its key and a member, conversations made as inbound makes them. */

export const HOUR = 3600_000;

let serial = 0;
export function phone(): string {
  serial += 1;
  return `+1415666${String(serial).padStart(4, "0")}`;
}

export interface InboxProject {
  seeded: Seeded;
  /** A member (owner) of the project's organization, signed in to the dashboard. */
  member: Operator;
  /** /api/v1 with the project's `*` key. */
  api(method: string, path: string, body?: unknown): Promise<CallResult>;
  /** /api/dashboard/projects/{id}{path} as `as` (default: member). */
  dash(method: string, path: string, body?: unknown, as?: Operator): Promise<CallResult>;
}

let projects = 0;

/** A fresh project per test: views and counts read the whole project, so nothing another test seeds shows. */
export async function inboxProject(app: TestApp): Promise<InboxProject> {
  const seeded = await app.seed({ orgName: `Inbox ${++projects}`, projectName: `Inbox ${projects}` });
  const member = await addOperator(app, seeded, "owner");
  return {
    seeded,
    member,
    api: (method, path, body) => app.call(method, path, { key: seeded.key, body }),
    dash: (method, path, body, as = member) => dash(app, method, `/projects/${seeded.projectId}${path}`, { as, body }),
  };
}

/** A contact and its conversation on the sandbox channel. */
export async function conversationIn(app: TestApp, seeded: Seeded, input: { name?: string | null; phone?: string } = {}) {
  const at = app.clock.now();
  const contact = await upsertContact(app.db, {
    projectId: seeded.projectId,
    organizationId: seeded.orgId,
    channelId: SANDBOX_CHANNEL_ID,
    platform: "PLATFORM_A",
    phone: input.phone ?? phone(),
    name: input.name === undefined ? "Ana" : input.name,
    now: at,
  });
  const conversation = await ensureConversation(app.db, seeded.projectId, contact.id, SANDBOX_CHANNEL_ID, at);
  return { contact, conversation };
}

/**
 * A message stored now (created_at = the clock), sent by the provider at `sentAt` (default now): the
 * window is measured on the provider's time, unread on the stored time.
 */
export async function messageIn(
  app: TestApp,
  seeded: Seeded,
  conversation: { id: string; contactId: string },
  input: { direction?: "inbound" | "outbound"; sentAt?: Date } = {},
) {
  const now = app.clock.now();
  const sentAt = input.sentAt ?? now;
  const [row] = await app.db
    .insert(messages)
    .values({
      id: newId("message", now.getTime()),
      projectId: seeded.projectId,
      conversationId: conversation.id,
      contactId: conversation.contactId,
      channelId: SANDBOX_CHANNEL_ID,
      direction: input.direction ?? "inbound",
      type: "text",
      status: "delivered",
      content: "Hello",
      body: {},
      platformMessageId: `wamid.${newId("message")}`,
      providerTimestamp: sentAt,
      timestamp: sentAt,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await touchConversations(app.db, [conversation.id], now);
  return row!;
}

/** Another member of the same organization. */
export function teammate(app: TestApp, project: InboxProject, role: "owner" | "admin" | "developer" | "viewer" = "developer") {
  return addOperator(app, project.seeded, role);
}

export function ids(res: CallResult): string[] {
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: string }[]).map((c) => c.id).sort();
}
