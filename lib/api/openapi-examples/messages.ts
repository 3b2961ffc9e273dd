import type { OperationExamples } from "./types";
import {
  BUTTONS,
  BUTTON_REPLY_MESSAGE,
  CHANNEL_ID,
  CONTACT_ID,
  CONVERSATION_ID,
  INBOUND_MESSAGE,
  INTERACTIVE_MESSAGE,
  MESSAGE_ID,
  NO_CONTENT,
  OUTBOUND_MESSAGE,
  PHONE,
  list,
} from "./fixtures";

const TEMPLATE_ID = "tmpl_01jxq4m7c2v9h8d3k6n5p0r1s2";

export const messageExamples: Record<string, OperationExamples> = {
  sendMessage: {
    request: {
      textTo: {
        summary: "Text to a phone number (starts or reuses the conversation)",
        value: { channel_id: CHANNEL_ID, to: PHONE, text: "Hi Carla, your order #1042 has shipped." },
      },
      textReply: {
        summary: "Reply in a conversation, quoting the customer's message",
        value: {
          channel_id: CHANNEL_ID,
          conversation_id: CONVERSATION_ID,
          reply_to: "wamid.HBgLMTQxNTU1NTAxOTkVAgASGBQzQUI1",
          text: "It shipped this morning: tracking 1Z999AA10123456784.",
        },
      },
      template: {
        summary: "Approved template outside the 24 h window (PLATFORM_A)",
        value: {
          channel_id: CHANNEL_ID,
          to: PHONE,
          template: { name: "order_shipped", language: "en_US", components: [{ type: "body", parameters: [{ type: "text", text: "#1042" }] }] },
        },
      },
      templateById: {
        summary: "A template by its id; its FLOW button gets a fresh flow_token (and dispatch) from svc",
        value: {
          channel_id: CHANNEL_ID,
          to: PHONE,
          template: { id: TEMPLATE_ID, components: [{ type: "body", parameters: [{ type: "text", text: "Carla" }] }] },
        },
      },
      media: {
        summary: "An image by https link",
        value: {
          channel_id: CHANNEL_ID,
          conversation_id: CONVERSATION_ID,
          media: { type: "image", link: "https://cdn.example.com/receipts/1042.png", caption: "Your receipt" },
        },
      },
      buttons: {
        summary: "Interactive reply buttons",
        value: {
          channel_id: CHANNEL_ID,
          conversation_id: CONVERSATION_ID,
          interactive: BUTTONS,
        },
      },
      location: {
        summary: "A location",
        value: {
          channel_id: CHANNEL_ID,
          conversation_id: CONVERSATION_ID,
          location: { latitude: 37.7793, longitude: -122.4193, name: "Acme Store", address: "1 Market St, San Francisco" },
        },
      },
    },
    response: {
      queued: {
        summary: "Queued; the status moves forward through message.status events",
        value: {
          object: "message",
          id: MESSAGE_ID,
          status: "queued",
          conversation_id: CONVERSATION_ID,
          contact_id: CONTACT_ID,
          idempotency_key: "order-1042-shipped",
          ...NO_CONTENT,
        },
      },
      interactive: {
        summary: "Interactive buttons queued: the content comes back as stored",
        value: {
          object: "message",
          id: MESSAGE_ID,
          status: "queued",
          conversation_id: CONVERSATION_ID,
          contact_id: CONTACT_ID,
          idempotency_key: "survey-1042",
          ...NO_CONTENT,
          interactive: BUTTONS,
        },
      },
    },
    errors: {
      404: {
        templateNotFound: {
          summary: "The template is not one of the sending channel's",
          value: {
            error: "not_found",
            message: `No template with id '${TEMPLATE_ID}' on channel ${CHANNEL_ID}. GET /templates?channel_id=${CHANNEL_ID} lists the templates it can send.`,
            issues: { "template.id": ["Unknown template."] },
          },
        },
      },
      409: {
        templateNotApproved: {
          summary: "The template is not APPROVED (yet)",
          value: {
            error: "template_not_approved",
            message: `Template ${TEMPLATE_ID} ('order_shipped', en_US) is PENDING: the provider is still reviewing it. Send it once it is APPROVED (the template.status event says when).`,
            template_id: TEMPLATE_ID,
            template_status: "PENDING",
          },
        },
        outsideWindow: {
          summary: "Free-form message outside the 24 h window",
          value: {
            error: "outside_messaging_window",
            message:
              "The customer has not written on this channel in the last 24 hours (last message 2026-06-16T08:12:40.000Z). Send an approved template to re-open the conversation.",
            channel_id: CHANNEL_ID,
            conversation_id: CONVERSATION_ID,
            last_customer_message_at: "2026-06-16T08:12:40.000Z",
          },
        },
        optInRequired: {
          summary: "The project requires an opt-in the contact does not have",
          value: {
            error: "contact_opt_in_required",
            message:
              "This project requires an active opt-in before starting a conversation. Record one with POST /contacts (opt_in: true), or set require_opt_in false.",
            contact_id: CONTACT_ID,
          },
        },
        handoff: {
          summary: "A teammate has taken over the conversation",
          value: {
            error: "ai_handoff_active",
            message:
              "A teammate has taken over this conversation (handoff is on). Automated replies are refused until handoff is turned off (POST /conversations/{id}/handoff {enabled: false}).",
            conversation_id: CONVERSATION_ID,
          },
        },
      },
      422: {
        templateParametersInvalid: {
          summary: "The parameters do not fit the template's components",
          value: {
            error: "template_parameters_invalid",
            message: `The components do not fit template ${TEMPLATE_ID} ('order_shipped', en_US): see issues. GET /templates/${TEMPLATE_ID} shows its components.`,
            template_id: TEMPLATE_ID,
            issues: { "template.components.0.parameters": ["The template's body expects 1 parameter ({{1}}); got 2."] },
          },
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
  listMessages: {
    response: {
      page: {
        summary: "Newest first, across conversations",
        value: list([BUTTON_REPLY_MESSAGE, INTERACTIVE_MESSAGE, OUTBOUND_MESSAGE, INBOUND_MESSAGE], true),
      },
    },
  },
  getMessage: {
    response: {
      text: { summary: "A text the customer sent", value: INBOUND_MESSAGE },
      buttonReply: { summary: "The button the customer tapped", value: BUTTON_REPLY_MESSAGE },
      interactive: { summary: "Reply buttons we sent, as sent", value: INTERACTIVE_MESSAGE },
    },
  },
};
