import type { Example, OperationExamples } from "./types";
import { AT, CONTACT_ID, LATER, PHONE, list } from "./fixtures";

/**
 * Examples of the registration-intent operations: a test-mode link on the shared sandbox, the same
 * intent once the customer's message completed it, and a live link on the project's own number.
 * Error messages are the ones lib/domain/registration-intents and lib/api/cors.ts produce.
 */

const INTENT_ID = "ri_01jxq4r2c8e0g2j4l6n8q0s2u4";
const LIVE_ID = "ri_01jxq4r5f1h3k5m7p9r1t3v5x7";
const TOKEN = "svcreg_4fQ9kLm2Xv8RtZp1Wc7Yb3";
const LIVE_TOKEN = "svcreg_Hn5Tq0Ws2Ke9Ud4Jb6Rx1V";
const TEXT = `Hi! Please register me. Ref: ${TOKEN}`;
const LIVE_TEXT = `Hello Acme, I'd like order updates here. ${LIVE_TOKEN}`;
const EXPIRES = "2026-06-25T09:30:00.000Z";
const SANDBOX_NUMBER = "+15550000000";

const link = (number: string, text: string) => `https://wa.me/${number.replace(/\D/g, "")}?text=${encodeURIComponent(text)}`;

const PENDING = {
  object: "registration_intent",
  id: INTENT_ID,
  token: TOKEN,
  status: "PENDING",
  mode: "test",
  wa_link: link(SANDBOX_NUMBER, TEXT),
  whatsapp_number: SANDBOX_NUMBER,
  prefilled_message: TEXT,
  customer_reference: "customer-8841",
  metadata: { signup_page: "pricing" },
  expires_at: EXPIRES,
  completed_at: null,
  contact_id: null,
  created_at: AT,
};

const COMPLETED = { ...PENDING, status: "COMPLETED", completed_at: LATER, contact_id: CONTACT_ID };

const LIVE = {
  ...PENDING,
  id: LIVE_ID,
  token: LIVE_TOKEN,
  mode: "live",
  wa_link: link(PHONE, LIVE_TEXT),
  whatsapp_number: PHONE,
  prefilled_message: LIVE_TEXT,
  customer_reference: "customer-9102",
  metadata: {},
  expires_at: "2026-06-18T10:30:00.000Z",
};

const notFound: Record<string, Example> = {
  notFound: {
    summary: "No such intent in this project (another project's id answers the same)",
    value: { error: "not_found", message: "No registration intent with id 'ri_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
  },
};

export const registrationIntentExamples: Record<string, OperationExamples> = {
  createRegistrationIntent: {
    request: {
      minimal: {
        summary: "Just your customer's reference (default text, 7 days)",
        value: { customer_reference: "customer-8841", metadata: { signup_page: "pricing" } },
      },
      ownText: {
        summary: "Your own text (the token is appended) and a one-hour expiry",
        value: { customer_reference: "customer-9102", prefilled_message: "Hello Acme, I'd like order updates here.", expires_in_seconds: 3600 },
      },
    },
    response: {
      test: { summary: "Test mode: the project has no number of its own yet, so the link opens the sandbox", value: PENDING },
      live: { summary: "Live mode: the project's own connected PLATFORM_A number", value: LIVE },
    },
    errors: {
      400: {
        tooLong: {
          summary: "The text plus the appended token is over 140 characters",
          value: {
            error: "invalid_request",
            message: "prefilled_message is too long: the token (29 characters) is appended to it and the whole text must fit 140.",
            issues: { prefilled_message: ["At most 110 characters (the token and a space are appended)."] },
          },
        },
      },
      403: {
        originNotAllowed: {
          summary: "A publishable key used from a page whose origin it does not allow",
          value: {
            error: "origin_not_allowed",
            message:
              "The origin 'https://evil.example' is not allowed for this publishable key. Add it to the key's allowed origins (dashboard, API keys) or use a key that allows it.",
            origin: "https://evil.example",
          },
        },
      },
    },
  },
  listRegistrationIntents: {
    response: { page: { summary: "Newest first", value: list([COMPLETED, LIVE]) } },
  },
  getRegistrationIntent: {
    response: {
      pending: { summary: "Waiting for the customer's message", value: PENDING },
      completed: { summary: "Completed: the customer sent the token; contact_id names them", value: COMPLETED },
    },
    errors: { 404: notFound },
  },
};
