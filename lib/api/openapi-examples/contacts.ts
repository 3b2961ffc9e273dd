import type { OperationExamples } from "./types";
import { AT, CONTACT, CONTACT_ID, CONVERSATION, INBOUND_MESSAGE, LATER, OUTBOUND_MESSAGE, PHONE, list } from "./fixtures";

export const contactExamples: Record<string, OperationExamples> = {
  listContacts: {
    response: { page: { summary: "One page of contacts", value: list([CONTACT]) } },
  },
  createContact: {
    request: {
      byPhone: { summary: "By phone, with an opt-in record", value: { phone: PHONE, reference_id: "crm-4821", preferred_language: "en", opt_in: true } },
      byUserId: {
        summary: "By platform user id on a PLATFORM_B channel",
        value: { user_id: "17841455512345678", channel_id: "ch_01jxq5c3d4e5f6g7h8j9k0m1n2" },
      },
    },
    response: { enrolled: { summary: "The contact with its active opt-in", value: CONTACT } },
    errors: {
      400: {
        notE164: {
          summary: "A phone number without its country code",
          value: { error: "invalid_request", message: "Invalid body: phone.", issues: { phone: ["Expected E.164, e.g. +14155550123."] } },
        },
      },
    },
  },
  getContact: {
    response: { contact: { summary: "A contact", value: CONTACT } },
  },
  updateContact: {
    request: {
      revoke: { summary: "Revoke the opt-in", value: { opt_in: false } },
      reference: { summary: "Set your own reference and language", value: { reference_id: "crm-4821", preferred_language: "pt-BR" } },
    },
    response: {
      revoked: {
        summary: "Opt-in revoked",
        value: { ...CONTACT, opt_in: { status: "revoked", source: "api", opted_in_at: AT, revoked_at: LATER }, updated_at: LATER },
      },
    },
  },
  eraseContact: {
    response: {
      erased: {
        summary: "Everything the project held for the contact, erased",
        value: {
          object: "contact",
          id: CONTACT_ID,
          deleted: true,
          erased: true,
          deleted_data_types: ["profile", "messages", "media", "opt_ins", "webhook_payloads"],
        },
      },
    },
    errors: {
      404: {
        alreadyErased: {
          summary: "Unknown, another project's, or already erased",
          value: { error: "not_found", message: `No contact with id '${CONTACT_ID}'.` },
        },
      },
    },
  },
};

// Under AGENT routing a handoff passes the thread to the business inbox (docs/api-decisions.md "Business agents: thread owner on the conversation").
const handedOff = {
  ...CONVERSATION,
  handoff: { status: "HUMAN_ACTIVE", reason: "Customer asked for a person", handoff_at: LATER },
  thread_owner: "BUSINESS_INBOX",
  ai_can_answer: false,
};

export const conversationExamples: Record<string, OperationExamples> = {
  listConversations: {
    response: { page: { summary: "Newest first", value: list([CONVERSATION], true) } },
  },
  getConversation: {
    response: { conversation: { summary: "A conversation", value: CONVERSATION } },
  },
  listConversationMessages: {
    response: { page: { summary: "The reply, then the customer's question", value: list([OUTBOUND_MESSAGE, INBOUND_MESSAGE]) } },
  },
  setConversationHandoff: {
    request: {
      on: { summary: "A teammate takes over", value: { enabled: true, reason: "Customer asked for a person" } },
      off: { summary: "Hand back to automation", value: { enabled: false } },
    },
    response: { humanActive: { summary: "Handoff on: automated replies are refused", value: handedOff } },
  },
};
