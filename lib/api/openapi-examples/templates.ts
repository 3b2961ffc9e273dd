import type { Example, OperationExamples } from "./types";
import { CHANNEL_ID, list } from "./fixtures";
import { FLOW_ID, META_FLOW_ID, WABA_ID } from "./flows-fixtures";

/**
 * Examples of the message-template operations: an order update and a booking template with a FLOW
 * button on the project's dedicated channel (fixtures.ts). Error messages are the ones
 * lib/domain/templates (submit.ts, validate.ts, flow-buttons.ts, crud.ts) produces.
 */

const TEMPLATE_ID = "tmpl_01jxq4x2b4d6f8h0k2m4p6r8t0";
const BOOKING_ID = "tmpl_01jxq4x7g9j1m3p5r7t9w1y3a5";
const META_TEMPLATE_ID = "1302557480841126";
const META_BOOKING_ID = "1302557480841127";
const SUBMITTED_AT = "2026-06-18T09:50:00.000Z";
const REVIEWED_AT = "2026-06-18T09:50:02.000Z";
const FBTRACE_ID = "AkW3pQ9tZr1xN5vB7yLm2sE";
const PLATFORM_B_CHANNEL_ID = "ch_01jxq5c3d4e5f6g7h8j9k0m1n2";

const ORDER_COMPONENTS = [
  { type: "HEADER", format: "TEXT", text: "Your order has shipped" },
  {
    type: "BODY",
    text: "Hi {{1}}, order {{2}} is on its way. Track it with the button below.",
    example: { body_text: [["Carla", "#1042"]] },
  },
  { type: "FOOTER", text: "Acme Support" },
  {
    type: "BUTTONS",
    buttons: [{ type: "URL", text: "Track order", url: "https://shop.example.com/orders/{{1}}", example: ["https://shop.example.com/orders/1042"] }],
  },
];

const BOOKING_COMPONENTS = [
  { type: "BODY", text: "Book your next visit in a few taps. We will confirm it right away." },
  { type: "BUTTONS", buttons: [{ type: "FLOW", text: "Book now", flow_name: "Book an appointment", flow_action: "navigate", navigate_screen: "APPOINTMENT" }] },
];

const ORDER_REQUEST = { channel_id: CHANNEL_ID, name: "order_shipped", language: "en_US", category: "UTILITY", components: ORDER_COMPONENTS };
const BOOKING_REQUEST = { channel_id: CHANNEL_ID, name: "book_visit", language: "en_US", category: "MARKETING", components: BOOKING_COMPONENTS };

/** As the create answers it: PENDING until the provider's review arrives on its webhook. */
const PENDING_TEMPLATE = {
  object: "whatsapp_template",
  id: TEMPLATE_ID,
  channel_id: CHANNEL_ID,
  meta_template_id: META_TEMPLATE_ID,
  name: "order_shipped",
  language: "en_US",
  category: "UTILITY",
  status: "PENDING",
  rejection_reason: null,
  components: ORDER_COMPONENTS,
  submitted_at: SUBMITTED_AT,
  approved_at: null,
  rejected_at: null,
  last_synced_at: null,
  created_at: SUBMITTED_AT,
  updated_at: SUBMITTED_AT,
};
const APPROVED_TEMPLATE = { ...PENDING_TEMPLATE, status: "APPROVED", approved_at: REVIEWED_AT, last_synced_at: REVIEWED_AT, updated_at: REVIEWED_AT };
const BOOKING_TEMPLATE = {
  ...PENDING_TEMPLATE,
  id: BOOKING_ID,
  meta_template_id: META_BOOKING_ID,
  name: "book_visit",
  category: "MARKETING",
  components: BOOKING_COMPONENTS,
};
/** A body that ends with a variable: the provider's INVALID_FORMAT rejection. */
const REJECTED_TEMPLATE = {
  ...PENDING_TEMPLATE,
  id: "tmpl_01jxq4y3c5e7g9j1m3p5r7t9w1",
  meta_template_id: "1302557480841128",
  name: "order_eta",
  status: "REJECTED",
  rejection_reason: "INVALID_FORMAT",
  components: [{ type: "BODY", text: "Your order arrives on {{1}}", example: { body_text: [["Friday"]] } }],
  rejected_at: REVIEWED_AT,
  last_synced_at: REVIEWED_AT,
  updated_at: REVIEWED_AT,
};

/** getTemplateRow's 404 (notFound("template", id)). */
const templateNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such template in this project (another project's id answers the same)",
    value: { error: "not_found", message: "No template with id 'tmpl_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
  },
};

/** 502 provider_error (providerCall): the provider refused or did not answer; nothing changed here. */
const providerUnreachable: Example = {
  summary: "The provider did not answer: the template is still here and at the provider; retry",
  value: {
    error: "provider_error",
    message: "The provider refused or did not answer: The provider did not answer in time",
    retryable: true,
    failure: {
      provider: "service",
      summary: "The provider did not answer in time",
      code: null,
      subcode: null,
      type: null,
      title: null,
      message: "The operation was aborted due to timeout",
      fbtrace_id: null,
      http_status: null,
      occurred_at: SUBMITTED_AT,
    },
  },
};

const createErrors: Record<number, Record<string, Example>> = {
  400: {
    componentRules: {
      summary: "Components that break the provider's rules: issues by request path",
      value: {
        error: "invalid_request",
        message: "The template's components break the provider's rules: see issues.",
        issues: {
          "components.1.text": ["Number the variables in order from {{1}}: found {{3}} where {{2}} was expected."],
          "components.3.buttons.0.text": ["The button label is 31 characters; the limit is 25."],
        },
      },
    },
    flowButton: {
      summary: "A FLOW button whose flow is not published under this channel's business account",
      value: {
        error: "invalid_request",
        message: "A FLOW button names a flow the template cannot use: see issues.",
        issues: {
          "components.1.buttons.0.flow_name": [
            `The flow named 'Book an appointment' is published under business account 309876543210987, not this channel's (${WABA_ID}): publish it while this channel is the project's.`,
          ],
        },
      },
    },
  },
  404: {
    channelNotFound: {
      summary: "channel_id is not the project's channel (another project's number answers the same)",
      value: { error: "not_found", message: "No channel with id 'ch_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
    },
  },
  409: {
    templateExists: {
      summary: "The same name and language on this channel",
      value: {
        error: "template_exists",
        message: `Channel ${CHANNEL_ID} already has a template 'order_shipped' in en_US. Use another name or language, or delete that template first.`,
        channel_id: CHANNEL_ID,
        name: "order_shipped",
        language: "en_US",
      },
    },
  },
  412: {
    sandbox: {
      summary: "The shared sandbox cannot submit templates",
      value: {
        error: "channel_not_ready",
        message: "Channel ch_sandbox cannot submit templates yet. The shared sandbox cannot submit templates: connect your own number.",
        channel_id: "ch_sandbox",
        blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"],
      },
    },
    accountUnknown: {
      summary: "A number whose account statuses are not known yet",
      value: {
        error: "channel_not_ready",
        message: `Channel ${CHANNEL_ID} cannot submit templates yet. See blockers (GET /readiness explains each).`,
        channel_id: CHANNEL_ID,
        blockers: ["META_ACCOUNT_STATUS_UNKNOWN", "PAYMENT_STATUS_UNKNOWN"],
      },
    },
  },
  422: {
    unsupportedChannel: {
      summary: "A channel without templates",
      value: {
        error: "feature_unsupported_on_channel",
        message: `Templates are a PLATFORM_A feature; channel ${PLATFORM_B_CHANNEL_ID} is PLATFORM_B.`,
        channel_id: PLATFORM_B_CHANNEL_ID,
        platform: "PLATFORM_B",
      },
    },
    templateRejected: {
      summary: "The provider refused the submission: its failure, code and message included",
      value: {
        error: "template_rejected",
        message: "The provider refused the template: (#100) Invalid parameter",
        failure: {
          provider: "provider",
          summary: "(#100) Invalid parameter: Param language must be a supported language code, such as en or en_US.",
          code: 100,
          subcode: null,
          type: "OAuthException",
          title: null,
          message: "(#100) Invalid parameter",
          fbtrace_id: FBTRACE_ID,
          http_status: 400,
          occurred_at: SUBMITTED_AT,
        },
      },
    },
  },
  502: { providerUnreachable },
};

export const templateExamples: Record<string, OperationExamples> = {
  listTemplates: {
    response: {
      page: { summary: "Newest first", value: list([REJECTED_TEMPLATE, BOOKING_TEMPLATE, APPROVED_TEMPLATE]) },
      approved: { summary: "?status=APPROVED&language=en_US", value: list([APPROVED_TEMPLATE]) },
    },
  },
  createTemplate: {
    request: {
      orderUpdate: { summary: "A UTILITY template with a header, two variables and a URL button", value: ORDER_REQUEST },
      flowButton: {
        summary: `A FLOW button naming a published flow (by flow_name, or flow_id '${FLOW_ID}')`,
        value: BOOKING_REQUEST,
      },
    },
    response: {
      pending: { summary: "Submitted: PENDING until the review (template.status follows)", value: PENDING_TEMPLATE },
      flowButton: {
        summary: `Stored as sent; the provider got the button's flow as its provider flow ${META_FLOW_ID}`,
        value: BOOKING_TEMPLATE,
      },
    },
    errors: createErrors,
  },
  getTemplate: {
    response: {
      approved: { summary: "Approved by the review", value: APPROVED_TEMPLATE },
      rejected: { summary: "Rejected: the provider's reason in rejection_reason", value: REJECTED_TEMPLATE },
    },
    errors: { 404: templateNotFound },
  },
  deleteTemplate: {
    response: {
      deleted: { summary: "Deleted at the provider (this language), then here", value: { object: "whatsapp_template", id: TEMPLATE_ID, deleted: true } },
    },
    errors: { 404: templateNotFound, 502: { providerUnreachable } },
  },
};
