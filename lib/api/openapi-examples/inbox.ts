import type { OperationExamples } from "./types";
import { AT, CONVERSATION, CONVERSATION_ID, KEY_ID, LATER, NOTE_ID, SAVED_REPLY_ID, USER_ID, list } from "./fixtures";

const assigned = {
  ...CONVERSATION,
  handoff: { status: "HUMAN_ACTIVE", reason: "Assigned to Maya Chen", handoff_at: LATER },
  thread_owner: "BUSINESS_INBOX",
  assignee: { id: USER_ID, name: "Maya Chen", email: "maya@example.com" },
  assigned_at: LATER,
  assigned_by: { type: "api_key", id: KEY_ID, name: "Support CRM" },
  ai_can_answer: false,
  updated_at: LATER,
};

const NOTE = {
  object: "note",
  id: NOTE_ID,
  conversation_id: CONVERSATION_ID,
  author: { type: "member", id: USER_ID, name: "Maya Chen" },
  body: "Asked for a refund on order 4821; waiting for the warehouse.",
  created_at: LATER,
};

const SAVED_REPLY = {
  object: "saved_reply",
  id: SAVED_REPLY_ID,
  shortcut: "greeting",
  title: "Greeting",
  body: "Hi {{contact.name}}, this is {{member.name}}. How can I help?",
  created_at: AT,
  updated_at: AT,
};

export const inboxConversationExamples: Record<string, OperationExamples> = {
  countConversations: {
    response: {
      member: {
        summary: "For a member in the dashboard",
        value: { object: "conversation_counts", all: 42, open: 17, needs_person: 5, mine: 3, unassigned: 30, unread: 6 },
      },
      apiKey: {
        summary: "For an API key: no mine, no unread",
        value: { object: "conversation_counts", all: 42, open: 17, needs_person: 5, mine: null, unassigned: 30, unread: null },
      },
    },
  },
  assignConversation: {
    request: {
      assign: { summary: "Assign to a member (the handoff turns on)", value: { assignee_id: USER_ID } },
      keepAutomation: { summary: "Assign, and let automation keep answering", value: { assignee_id: USER_ID, handoff: false } },
      unassign: { summary: "Unassign", value: { assignee_id: null } },
    },
    response: { assigned: { summary: "Assigned, handoff on", value: assigned } },
    errors: {
      422: {
        notAMember: {
          summary: "Not a member of the organization",
          value: {
            error: "unprocessable",
            message: `No member '${USER_ID}' in this project's organization. Pass the user id of a member (the dashboard's Members page lists them), or null to unassign.`,
            issues: { assignee_id: ["Not a member of this organization."] },
          },
        },
      },
    },
  },
  listConversationNotes: {
    response: { page: { summary: "Oldest first", value: list([NOTE]) } },
  },
  createConversationNote: {
    request: { note: { summary: "A note for the team", value: { body: NOTE.body } } },
    response: { created: { summary: "The note", value: NOTE } },
  },
};

export const savedReplyExamples: Record<string, OperationExamples> = {
  listSavedReplies: {
    response: { page: { summary: "Newest first", value: list([SAVED_REPLY]) } },
  },
  createSavedReply: {
    request: {
      greeting: { summary: "With variables", value: { shortcut: "greeting", title: "Greeting", body: SAVED_REPLY.body } },
    },
    response: { created: { summary: "The saved reply", value: SAVED_REPLY } },
    errors: {
      409: {
        duplicate: {
          summary: "The shortcut is taken",
          value: {
            error: "conflict",
            message: "The shortcut 'greeting' is already used by another saved reply of this project. Choose another, or edit that one.",
            issues: { shortcut: ["Already used in this project."] },
          },
        },
      },
    },
  },
  getSavedReply: {
    response: { savedReply: { summary: "A saved reply", value: SAVED_REPLY } },
  },
  updateSavedReply: {
    request: { body: { summary: "New text", value: { body: "Hello {{contact.name}}! {{member.name}} here." } } },
    response: { updated: { summary: "Changed", value: { ...SAVED_REPLY, body: "Hello {{contact.name}}! {{member.name}} here.", updated_at: LATER } } },
  },
  deleteSavedReply: {
    response: { deleted: { summary: "Deleted", value: { object: "saved_reply", id: SAVED_REPLY_ID, deleted: true } } },
  },
  renderSavedReply: {
    request: { forConversation: { summary: "For one conversation", value: { conversation_id: CONVERSATION_ID } } },
    response: {
      filled: {
        summary: "Every variable had a value",
        value: { object: "saved_reply_render", text: "Hi Carla Diaz, this is Maya Chen. How can I help?", missing: [] },
      },
      apiKey: {
        summary: "Called with an API key: no member name",
        value: { object: "saved_reply_render", text: "Hi Carla Diaz, this is . How can I help?", missing: ["member.name"] },
      },
    },
  },
};
