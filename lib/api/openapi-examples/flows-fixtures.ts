/**
 * Shared values of the Flows examples: a two-screen appointment flow of the "Support bot" project
 * (fixtures.ts), in English (the published one, group "book-appointment") and Spanish, one dispatch to
 * Carla and her submission. The Flow JSON and field_schema are what the compiler makes of DRAFT
 * (lib/domain/flows/flow-json/compile.ts), copied from its real output.
 */
import { CHANNEL_ID, CONTACT_ID, CONVERSATION_ID, PHONE, PROJECT_ID } from "./fixtures";

export const FLOW_ID = "flow_01jxq4s2a3b4c5d6e7f8g9h0j1";
export const FLOW_ES_ID = "flow_01jxq4s9m2n3p4q5r6s7t8v9w0";
const FLOW_IMPORTED_ID = "flow_01jxq4t5c6d7e8f9g0h1j2k3m4";
const DISPATCH_ID = "fd_01jxq4v8d2f4h6k8m0p2r4t6w8";
const SUBMISSION_ID = "fs_01jxq4w3e5g7j9m1p3s5v7y9b1";
const FLOW_TOKEN = "svcft_7QmZ2xKp9LwR4tVb8NcY1sHd6FgJ3eUa";
export const SEND_MESSAGE_ID = "msg_01jxq4v8d1e3g5j7m9q1s3v5x7";
/** The provider's ids: the business account of the dedicated channel and the provider flow of version 1. */
export const WABA_ID = "203040506070";
export const META_FLOW_ID = "1185672402954210";
export const CONFIG_KEY = "book-appointment";

const CREATED_AT = "2026-06-17T14:05:00.000Z";
const PUBLISHED_AT = "2026-06-17T14:06:12.000Z";
const SENT_AT = "2026-06-18T09:44:10.000Z";
const COMPLETED_AT = "2026-06-18T09:46:37.000Z";

const SERVICE_OPTIONS = [
  { id: "haircut", title: "Haircut" },
  { id: "colour", title: "Colour" },
  { id: "styling", title: "Styling" },
];

export const DRAFT = {
  entryScreenId: "APPOINTMENT",
  screens: [
    {
      id: "APPOINTMENT",
      title: "Book an appointment",
      body: "Pick a service and a day that suits you.",
      fields: [
        {
          name: "service",
          type: "dropdown",
          label: "Service",
          required: true,
          options: SERVICE_OPTIONS,
        },
        { name: "date", type: "date", label: "Date", required: true },
      ],
      next: "DETAILS",
      submit_label: "Continue",
    },
    {
      id: "DETAILS",
      title: "Your details",
      fields: [
        { name: "name", type: "text", label: "Full name", required: true },
        { name: "email", type: "email", label: "Email", required: true },
        { name: "reminders", type: "optin", label: "Send me a reminder" },
      ],
      submit_label: "Book",
    },
  ],
};

const FIELD_SCHEMA = [
  { name: "service", type: "dropdown", required: true, screen: "APPOINTMENT" },
  { name: "date", type: "date", required: true, screen: "APPOINTMENT" },
  { name: "name", type: "text", required: true, screen: "DETAILS" },
  { name: "email", type: "email", required: true, screen: "DETAILS" },
  { name: "reminders", type: "optin", required: false, screen: "DETAILS" },
];

/** The terminal screen declares what the first one carries over, with the provider's `__example__` values. */
const DETAILS_DATA = { service: { type: "string", __example__: "haircut" }, date: { type: "string", __example__: "2024-01-31" } };
const COMPLETE_PAYLOAD = { service: "${data.service}", date: "${data.date}", name: "${form.name}", email: "${form.email}", reminders: "${form.reminders}" };

export const FLOW_JSON = {
  version: "7.3",
  screens: [
    {
      id: "APPOINTMENT",
      title: "Book an appointment",
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "Pick a service and a day that suits you." },
          { type: "Dropdown", name: "service", label: "Service", required: true, "data-source": SERVICE_OPTIONS },
          { type: "DatePicker", name: "date", label: "Date", required: true },
          {
            type: "Footer",
            label: "Continue",
            "on-click-action": { name: "navigate", next: { type: "screen", name: "DETAILS" }, payload: { service: "${form.service}", date: "${form.date}" } },
          },
        ],
      },
    },
    {
      id: "DETAILS",
      title: "Your details",
      terminal: true,
      success: true,
      data: DETAILS_DATA,
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextInput", name: "name", label: "Full name", "input-type": "text", required: true },
          { type: "TextInput", name: "email", label: "Email", "input-type": "email", required: true },
          { type: "OptIn", name: "reminders", label: "Send me a reminder", required: false },
          { type: "Footer", label: "Book", "on-click-action": { name: "complete", payload: COMPLETE_PAYLOAD } },
        ],
      },
    },
  ],
};

/** The Spanish variant of the group, given as Flow JSON (stored as is). */
export const FLOW_JSON_ES = {
  version: "7.3",
  screens: [
    {
      id: "CITA",
      title: "Reserva una cita",
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextBody", text: "Elige un servicio y un día." },
          {
            type: "Dropdown",
            name: "service",
            label: "Servicio",
            required: true,
            "data-source": [
              { id: "haircut", title: "Corte" },
              { id: "colour", title: "Color" },
              { id: "styling", title: "Peinado" },
            ],
          },
          { type: "DatePicker", name: "date", label: "Fecha", required: true },
          {
            type: "Footer",
            label: "Continuar",
            "on-click-action": { name: "navigate", next: { type: "screen", name: "DATOS" }, payload: { service: "${form.service}", date: "${form.date}" } },
          },
        ],
      },
    },
    {
      id: "DATOS",
      title: "Tus datos",
      terminal: true,
      success: true,
      data: DETAILS_DATA,
      layout: {
        type: "SingleColumnLayout",
        children: [
          { type: "TextInput", name: "name", label: "Nombre completo", "input-type": "text", required: true },
          { type: "TextInput", name: "email", label: "Correo electrónico", "input-type": "email", required: true },
          { type: "OptIn", name: "reminders", label: "Envíame un recordatorio", required: false },
          { type: "Footer", label: "Reservar", "on-click-action": { name: "complete", payload: COMPLETE_PAYLOAD } },
        ],
      },
    },
  ],
};

/** A draft saved with a typo in `next`: stored, not publishable, the findings say what to fix. */
export const DRAFT_WITH_TYPO = { ...DRAFT, screens: [{ ...DRAFT.screens[0]!, next: "DETAIL" }, DRAFT.screens[1]!] };
export const TYPO_FINDINGS = [
  {
    code: "UNKNOWN_SCREEN",
    message: "Screen 'APPOINTMENT' goes next to 'DETAIL', which is not a screen of the flow.",
    path: "/screens/0/next",
    next_steps: "Set next to an existing screen id, or remove it to make this the last screen.",
  },
  {
    code: "UNREACHABLE_SCREEN",
    message: "Screen 'DETAILS' cannot be reached from the entry screen 'APPOINTMENT'.",
    path: "/screens/1",
    next_steps: "Point the next of an earlier screen at it, or remove it.",
  },
];

const NEVER_PUBLISHED = {
  meta_status: null,
  meta_status_reason: null,
  published_version: null,
  has_unpublished_changes: false,
  meta_flow_id: null,
  meta_waba_id: null,
  last_synced_at: null,
};

/** Just created from DRAFT: compiled and clean, not published yet. */
export const FLOW_CREATED = {
  object: "flow",
  id: FLOW_ID,
  config_key: CONFIG_KEY,
  locale: "en",
  name: "Book an appointment",
  description: "Service and day, then contact details.",
  status: "DRAFT",
  ...NEVER_PUBLISHED,
  validation_errors: [],
  runtime_mode: "STATIC",
  data_exchange_url: null,
  field_schema: FIELD_SCHEMA,
  agent_id: PROJECT_ID,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

/** Version 1 is live under the dedicated channel's business account. */
export const FLOW = {
  ...FLOW_CREATED,
  status: "PUBLISHED",
  meta_status: "PUBLISHED",
  published_version: 1,
  meta_flow_id: META_FLOW_ID,
  meta_waba_id: WABA_ID,
  last_synced_at: PUBLISHED_AT,
  updated_at: PUBLISHED_AT,
};

export const FLOW_ES = {
  ...FLOW,
  id: FLOW_ES_ID,
  locale: "es",
  name: "Reserva una cita",
  description: null,
  meta_flow_id: "1029384756102938",
  created_at: "2026-06-17T14:20:41.000Z",
  updated_at: "2026-06-17T14:21:30.000Z",
  last_synced_at: "2026-06-17T14:21:30.000Z",
};

/** Imported as Flow JSON: our checks passed, the provider refused a Footer with two captions. */
export const FLOW_PUBLISH_FAILED = {
  ...FLOW_CREATED,
  id: FLOW_IMPORTED_ID,
  config_key: "book-appointment-v2",
  name: "Book an appointment (imported)",
  description: null,
  meta_status: "PUBLISH_FAILED",
  meta_status_reason: "The provider found errors in the Flow JSON.",
  validation_errors: [
    {
      code: "NOT_KEYWORD_SCHEMA_VALIDATION_FAILED",
      error_type: "FLOW_JSON_ERROR",
      message: "A Footer takes either center-caption or left-caption and right-caption, not both.",
      line_start: 37,
      line_end: 37,
      column_start: 11,
      column_end: 31,
      pointers: [{ line_start: 37, line_end: 37, column_start: 11, column_end: 31, path: "screens[0].layout.children[3].center-caption" }],
    },
  ],
  last_synced_at: "2026-06-18T08:02:19.000Z",
  created_at: "2026-06-18T08:01:02.000Z",
  updated_at: "2026-06-18T08:02:19.000Z",
};

export const DISPATCH = {
  object: "flow_dispatch",
  id: DISPATCH_ID,
  flow_token: FLOW_TOKEN,
  flow_id: FLOW_ID,
  agent_id: PROJECT_ID,
  channel_id: CHANNEL_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  to: null,
  status: "SENT",
  created_at: SENT_AT,
  completed_at: null,
  expires_at: "2026-07-18T09:44:10.000Z",
};

export const DISPATCH_COMPLETED = { ...DISPATCH, status: "COMPLETED", completed_at: COMPLETED_AT };

export const DISPATCH_EXPIRED = {
  ...DISPATCH,
  id: "fd_01jvd2k4m6p8r0t2w4y6a8c0e2",
  flow_token: "svcft_Hk3Ws9dPq2ZbT6nVx4Lr8YcM1fGj5AeU",
  conversation_id: "conv_01jvd2k3a5c7e9g1j3m5p7r9t1",
  contact_id: "ct_01jvd2k2z4b6d8f0h2k4n6q8s0",
  to: "+14155550142",
  status: "EXPIRED",
  created_at: "2026-05-12T16:20:03.000Z",
  expires_at: "2026-06-11T16:20:03.000Z",
};

const SUBMITTED_VALUES = { service: "colour", date: "2026-06-24", name: "Carla Diaz", email: "carla.diaz@example.com", reminders: true };

/** Checked against version 1's field_schema; flow.completed is on its way to the webhook. */
export const SUBMISSION = {
  object: "flow_submission",
  id: SUBMISSION_ID,
  flow_token: FLOW_TOKEN,
  agent_id: PROJECT_ID,
  flow_id: FLOW_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  from: PHONE,
  status: "VALIDATED",
  submission: SUBMITTED_VALUES,
  errors: null,
  created_at: COMPLETED_AT,
};

export const SUBMISSION_REJECTED = {
  ...SUBMISSION,
  id: "fs_01jxq3h7k9n1q3t5w7z9c1f3j5",
  flow_token: "svcft_pR8vC2mX6kQ1zT9wB4nH7jL3sD5gF0yE",
  conversation_id: "conv_01jxq3g2b4d6f8h0k2n4q6s8v0",
  contact_id: "ct_01jxq3g1a3c5e7g9j1m3p5r7t9",
  from: "+14155550177",
  status: "REJECTED",
  submission: { service: "massage", date: "2026-06-31", name: "Dev Patel", email: "dev.patel@example.com", reminders: false },
  errors: [
    { field: "service", code: "INVALID_OPTION", message: "service must be one of the option ids. Choose from: haircut, colour, styling." },
    { field: "date", code: "INVALID_DATE", message: "date must be a date (YYYY-MM-DD)." },
  ],
  created_at: "2026-06-18T08:55:12.000Z",
};
