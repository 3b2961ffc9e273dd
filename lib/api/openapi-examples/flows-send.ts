import type { OperationExamples } from "./types";
import { CHANNEL_ID, CONTACT_ID, CONVERSATION_ID, PHONE, list } from "./fixtures";
import {
  CONFIG_KEY,
  DISPATCH,
  DISPATCH_COMPLETED,
  DISPATCH_EXPIRED,
  FLOW_ES_ID,
  FLOW_ID,
  SEND_MESSAGE_ID,
  SUBMISSION,
  SUBMISSION_REJECTED,
  WABA_ID,
} from "./flows-fixtures";

const OTHER_CHANNEL_ID = "ch_01jxq5d4e5f6g7h8j9k0m1n2p3";
const LAST_CUSTOMER_MESSAGE_AT = "2026-06-16T08:12:40.000Z";

/** POST /flows/send, a Flow's dispatches and submissions (the Flows operations of flows.ts continue here). */
export const flowSendExamples: Record<string, OperationExamples> = {
  sendFlow: {
    request: {
      byConfigKey: {
        summary: "By config_key to a contact: the locale comes from the contact's preferred_language",
        value: {
          channel_id: CHANNEL_ID,
          config_key: CONFIG_KEY,
          contact_id: CONTACT_ID,
          body_text: "Hi Carla! Book your next appointment in under a minute.",
          flow_cta: "Book now",
          header_text: "Acme Salon",
          footer_text: "You can change it later",
          idempotency_key: "appt-invite-carla-0618",
        },
      },
      byFlowId: {
        summary: "One flow, in a conversation, opening its first screen",
        value: {
          channel_id: CHANNEL_ID,
          flow_id: FLOW_ID,
          conversation_id: CONVERSATION_ID,
          body_text: "Pick a new day for your appointment.",
          screen: "APPOINTMENT",
        },
      },
      outsideWindow: {
        summary: "Outside the 24 h window: inside an approved template with a FLOW button",
        value: {
          channel_id: CHANNEL_ID,
          config_key: CONFIG_KEY,
          to: PHONE,
          locale: "es",
          body_text: "Reserva tu próxima cita.",
          template: { name: "appointment_booking", language: "es" },
        },
      },
    },
    response: {
      sent: {
        summary: "The dispatch (its unique flow_token), the message carrying it and the version it opens",
        value: { ...DISPATCH, message_id: SEND_MESSAGE_ID, idempotency_key: "appt-invite-carla-0618", locale: "en", flow_version: 1 },
      },
      template: {
        summary: "Sent as the template, to a phone number: the Spanish variant",
        value: {
          ...DISPATCH,
          id: "fd_01jxq4x2b4d6f8h0k2n4q6s8v0",
          flow_token: "svcft_Ud4Zm8Qx1Rb6Tk3Wn9Hc5Lp2Ys7Vf0Ja",
          flow_id: FLOW_ES_ID,
          to: PHONE,
          message_id: "msg_01jxq4x2b3c5e7g9j1m3p5r7t9",
          idempotency_key: "idem_01jxq4x2b2a4c6e8g0j2l4n6q8",
          locale: "es",
          flow_version: 1,
        },
      },
    },
    errors: {
      409: {
        outsideWindow: {
          summary: "Outside the 24 h window without a template",
          value: {
            error: "outside_messaging_window",
            message: `The customer has not written on this channel in the last 24 hours (last message ${LAST_CUSTOMER_MESSAGE_AT}). Send an approved template to re-open the conversation.`,
            channel_id: CHANNEL_ID,
            conversation_id: CONVERSATION_ID,
            last_customer_message_at: LAST_CUSTOMER_MESSAGE_AT,
          },
        },
      },
      404: {
        unknownConfigKey: {
          summary: "No flow group with this config_key",
          value: { error: "not_found", message: "No flow with config_key 'book-apointment' in this project.", issues: { config_key: ["Unknown."] } },
        },
      },
      412: {
        channelNotReady: {
          summary: "The channel is not connected",
          value: {
            error: "channel_not_ready",
            message: `Channel ${CHANNEL_ID} is disconnected; it must be connected to send.`,
            channel_id: CHANNEL_ID,
            blockers: ["CHANNEL_NOT_CONNECTED"],
          },
        },
      },
      422: {
        noLocaleVariant: {
          summary: "The group has no variant for the locale, and no default",
          value: {
            error: "flow_not_sendable",
            message: `Flow group '${CONFIG_KEY}' has no variant for fr and no default (locale null). Variants: en, es.`,
            reason: "NO_LOCALE_VARIANT",
            config_key: CONFIG_KEY,
          },
        },
        blocked: {
          summary: "The provider blocked the flow",
          value: {
            error: "flow_not_sendable",
            message: `The provider reports flow "Book an appointment" as BLOCKED; it cannot be sent until the provider reports it PUBLISHED again (Refresh status on its page shows the latest).`,
            reason: "META_STATUS_BLOCKED",
            flow_id: FLOW_ID,
            meta_status: "BLOCKED",
          },
        },
        notPublished: {
          summary: "Never published",
          value: {
            error: "flow_not_sendable",
            message: `Flow "Book an appointment" is DRAFT: publish it first (Publish on its page in the dashboard, or POST /flows/${FLOW_ID}/publish).`,
            reason: "FLOW_DRAFT",
            flow_id: FLOW_ID,
            meta_status: null,
          },
        },
        otherAccount: {
          summary: "Published under another business account than the channel's (the project's own number vs the shared sandbox)",
          value: {
            error: "flow_not_sendable",
            message:
              `Flow "Book an appointment" is published on Main line (+14155550100); the shared sandbox belongs to another business account, so it cannot send this flow yet. ` +
              `Publish it on the shared sandbox first (sending from the flow's page in the dashboard offers to), or send it through Main line (+14155550100, channel_id ${OTHER_CHANNEL_ID}).`,
            reason: "WABA_MISMATCH",
            flow_id: FLOW_ID,
            meta_status: "PUBLISHED",
            channel_id: "ch_sandbox",
            business_account_id: "sandbox-waba",
            published_business_account_id: WABA_ID,
            published_channel_id: OTHER_CHANNEL_ID,
          },
        },
        unsupportedChannel: {
          summary: "A channel without Flows",
          value: {
            error: "feature_unsupported_on_channel",
            message: "Flows are a PLATFORM_A feature; channel ch_01jxq5c3d4e5f6g7h8j9k0m1n2 is PLATFORM_B.",
            channel_id: "ch_01jxq5c3d4e5f6g7h8j9k0m1n2",
            platform: "PLATFORM_B",
          },
        },
      },
      429: {
        pairRateLimit: {
          summary: "A second new message to the same recipient within 6 s",
          value: {
            error: "message_pair_rate_limit",
            message: "Only one new message per 6 s may go to the same recipient from the same channel. Retry after 4 s with the same Idempotency-Key.",
            channel_id: CHANNEL_ID,
            channel_platform: "PLATFORM_A",
            queued: false,
            retryable: true,
            retry_after: 4,
          },
        },
      },
    },
  },
  listFlowDispatches: {
    response: {
      page: { summary: "Newest first: one completed, one that expired unanswered after 30 days", value: list([DISPATCH_COMPLETED, DISPATCH_EXPIRED]) },
      sent: { summary: "?status=SENT: still waiting for the customer", value: list([DISPATCH]) },
    },
  },
  listFlowSubmissions: {
    response: {
      page: {
        summary: "Newest first: one VALIDATED (flow.completed on its way), one REJECTED with errors against field_schema",
        value: list([SUBMISSION, SUBMISSION_REJECTED]),
      },
      forwarded: { summary: "?status=FORWARDED: flow.completed reached the webhook", value: list([{ ...SUBMISSION, status: "FORWARDED" }]) },
    },
  },
};
