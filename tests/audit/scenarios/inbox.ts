import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertContact } from "@/lib/domain/contacts/identity";
import { ensureConversation } from "@/lib/domain/conversations";
import { scenario, type Stage } from "./support";

/** The team inbox: assigning a conversation and writing a note on it. */

let numbers = 0;

async function conversation(stage: Stage): Promise<string> {
  const { app } = stage.h;
  const contact = await upsertContact(app.db, {
    projectId: stage.seeded.projectId,
    organizationId: stage.seeded.orgId,
    channelId: SANDBOX_CHANNEL_ID,
    platform: "PLATFORM_A",
    phone: `+1555777${String(++numbers).padStart(4, "0")}`,
    name: "Ana",
    now: app.clock.now(),
  });
  return (await ensureConversation(app.db, stage.seeded.projectId, contact.id, SANDBOX_CHANNEL_ID, app.clock.now())).id;
}

export const inboxScenarios = [
  scenario({
    operationId: "assignConversation",
    proves: ["conversation.assigned"],
    actor: "user",
    setup: conversation,
    act: (stage, id) => stage.dash("POST", `/conversations/${id}/assignment`, { assignee_id: stage.owner.userId }),
  }),
  scenario({
    operationId: "createConversationNote",
    proves: ["conversation.note_added"],
    actor: "api_key",
    setup: conversation,
    act: (stage, id) => stage.api("POST", `/conversations/${id}/notes`, { body: "Customer prefers mornings: call back at 9" }),
    // The note's text stays out of the log: it may quote the customer.
    secrets: () => ["prefers mornings"],
  }),
];
