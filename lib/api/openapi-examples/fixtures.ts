/**
 * Shared values of the documentation examples: one organization "Acme" with a project "Support bot",
 * its dedicated PLATFORM_A channel and one customer. Shapes copied from real responses of the API.
 */
export const AT = "2026-06-18T09:30:00.000Z";
export const LATER = "2026-06-18T09:42:11.000Z";

export const ORG_ID = "org_01jxq4m7s2v8k3t6w9y1b5c0d4";
export const PROJECT_ID = "proj_01jxq4m7s3a2c4e6g8j0k2m4n6";
export const KEY_ID = "key_01jxq4m7s4b7d9f1h3k5m7p9r1";
export const CHANNEL_ID = "ch_01jxq4n2t8e5r7w9y1a3c5e7g9";
export const CONTACT_ID = "ct_01jxq4p9v6h2k4m6p8r0t2v4x6";
export const CONVERSATION_ID = "conv_01jxq4p9v7j3m5p7r9t1v3x5z7";
export const MESSAGE_ID = "msg_01jxq4q3w8k4n6q8s0u2w4y6a8";
export const INBOUND_MESSAGE_ID = "msg_01jxq4q1w2a4c6e8g0j2l4n6q8";
export const EVENT_ID = "evt_01jxq4q5x9m5p7r9t1v3x5z7b9";
export const DELIVERY_ID = "wd_01jxq4q6y0n6q8s0u2w4y6a8c0";
const ATTEMPT_ID = "wa_01jxq4q7z1p7r9t1v3x5z7b9d1";
export const PHONE = "+14155550199";
export const USER_ID = "usr_01jxq4m7s5c8e0g2j4l6n8q0s2";
export const NOTE_ID = "note_01jxq4r2z1p7r9t1v3x5z7b9d1";
export const SAVED_REPLY_ID = "srep_01jxq4r3a2q8s0u2w4y6a8c0e2";
export const WEBHOOK_URL = "https://hooks.example.com/svc";
export const JOIN_CODE = "ctnacwvg";

export const SANDBOX_READINESS = {
  mode: "sandbox",
  can_publish_flows: true,
  can_submit_templates: false,
  business_verification_status: "verified",
  account_review_status: "APPROVED",
  phone_number_status: "CONNECTED",
  blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"],
};

const DEDICATED_READINESS = {
  mode: "dedicated",
  can_publish_flows: true,
  can_submit_templates: true,
  business_verification_status: "verified",
  account_review_status: "APPROVED",
  phone_number_status: "CONNECTED",
  blockers: [],
};

export const SANDBOX_CHANNEL = {
  object: "channel",
  id: "ch_sandbox",
  channel_id: "ch_sandbox",
  platform: "PLATFORM_A",
  status: "connected",
  display_name: "svc Sandbox",
  phone_number: "+15550000000",
  routing_mode: "EXTERNAL",
  number_mode: "sandbox",
  is_sandbox: true,
  routing_warning: null,
  publish_readiness: SANDBOX_READINESS,
};

export const CHANNEL = {
  object: "channel",
  id: CHANNEL_ID,
  channel_id: CHANNEL_ID,
  platform: "PLATFORM_A",
  status: "connected",
  display_name: "Acme Support",
  phone_number: "+14155550123",
  routing_mode: "EXTERNAL",
  number_mode: "dedicated",
  is_sandbox: false,
  routing_warning: null,
  publish_readiness: DEDICATED_READINESS,
};

const projectFields = {
  object: "project",
  id: PROJECT_ID,
  project_id: PROJECT_ID,
  name: "Support bot",
  description: "Answers order questions.",
  routing_mode: "EXTERNAL",
  join_code: JOIN_CODE,
  require_opt_in: true,
  webhook_url: WEBHOOK_URL,
  webhook_signing_enabled: true,
  channel_id: CHANNEL_ID,
  enrollment_channel: CHANNEL,
  publish_readiness: DEDICATED_READINESS,
  participant_count: 2,
  flow_count: 0,
  created_at: AT,
  updated_at: LATER,
};

/** In lists: never the signing secret. */
export const PROJECT_SUMMARY = projectFields;
export const PROJECT = { ...projectFields, webhook_secret: "whsec_4FWkkOYvdzP95ktr9vfrO5THLPuU70iX" };

export const CONTACT = {
  object: "contact",
  id: CONTACT_ID,
  contact_id: CONTACT_ID,
  phone: PHONE,
  user_id: null,
  username: null,
  name: "Carla Diaz",
  preferred_language: "en",
  project_id: PROJECT_ID,
  channel_id: CHANNEL_ID,
  channel: CHANNEL,
  reference_id: "crm-4821",
  status: "active",
  opt_in: { status: "active", source: "api", opted_in_at: AT, revoked_at: null },
  created_at: AT,
  updated_at: AT,
};

export const CONVERSATION = {
  object: "conversation",
  id: CONVERSATION_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  phone: PHONE,
  name: "Carla Diaz",
  reference_id: "crm-4821",
  last_channel_id: CHANNEL_ID,
  is_active: true,
  handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null },
  started_at: AT,
  last_message_at: LATER,
  // 24 h after INBOUND_MESSAGE, the customer's last message on CHANNEL_ID.
  messaging_window: { open: true, closes_at: "2026-06-19T09:30:00.000Z" },
  // The project routes AGENT and the channel's agent is ACTIVE: the agent answers.
  thread_owner: "PROVIDER_AGENT",
  assignee: null,
  assigned_at: null,
  assigned_by: null,
  // Read by an API key: keys have no read state.
  unread_count: null,
  ai_can_answer: true,
  created_at: AT,
  updated_at: LATER,
};

/** The Message object's structured content fields: null except the one that is the message's content. */
export const NO_CONTENT = { interactive: null, location: null, contacts: null, template: null, reaction: null, sticker: null };

export const INBOUND_MESSAGE = {
  object: "message",
  id: INBOUND_MESSAGE_ID,
  message_id: INBOUND_MESSAGE_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  channel_id: CHANNEL_ID,
  direction: "inbound",
  type: "text",
  status: "received",
  content: "Where is my order #1042?",
  platform_message_id: "wamid.HBgLMTQxNTU1NTAxOTkVAgASGBQzQUI1",
  reply_to: null,
  failure: null,
  media: null,
  ...NO_CONTENT,
  timestamp: AT,
};

export const OUTBOUND_MESSAGE = {
  object: "message",
  id: MESSAGE_ID,
  message_id: MESSAGE_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  channel_id: CHANNEL_ID,
  direction: "outbound",
  type: "text",
  status: "delivered",
  content: "It shipped this morning: tracking 1Z999AA10123456784.",
  platform_message_id: "wamid.HBgLMTQxNTU1NTAxOTkVAgARGBI5QTNG",
  reply_to: null,
  failure: null,
  media: null,
  ...NO_CONTENT,
  timestamp: LATER,
};

export const BUTTONS = {
  type: "button",
  body: "Was your question answered?",
  buttons: [
    { id: "yes", title: "Yes, thanks" },
    { id: "agent", title: "Talk to a person" },
  ],
};

export const INTERACTIVE_MESSAGE = {
  ...OUTBOUND_MESSAGE,
  id: "msg_01jxq4q4x9m5p7r9t1v3x5z7b0",
  message_id: "msg_01jxq4q4x9m5p7r9t1v3x5z7b0",
  type: "interactive",
  status: "read",
  content: "Was your question answered?",
  platform_message_id: "wamid.HBgLMTQxNTU1NTAxOTkVAgARGBI0QkE1",
  interactive: BUTTONS,
};

export const BUTTON_REPLY_MESSAGE = {
  ...INBOUND_MESSAGE,
  id: "msg_01jxq4q5y0n6q8s0u2w4y6a8c1",
  message_id: "msg_01jxq4q5y0n6q8s0u2w4y6a8c1",
  type: "interactive",
  content: "Yes, thanks",
  platform_message_id: "wamid.HBgLMTQxNTU1NTAxOTkVAgASGBQ5RkM3",
  interactive: { type: "button_reply", id: "yes", title: "Yes, thanks", description: null, payload: null, response: null, flow_token: null },
  timestamp: "2026-06-18T09:43:02.000Z",
};

export const WEBHOOK_DELIVERY = {
  object: "webhook_delivery",
  id: DELIVERY_ID,
  event_id: EVENT_ID,
  event_type: "message.received",
  status: "succeeded",
  trigger: "event",
  attempt_count: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  last_duration_ms: 84,
  created_at: AT,
  updated_at: AT,
  completed_at: AT,
};

export const WEBHOOK_DELIVERY_DETAIL = {
  ...WEBHOOK_DELIVERY,
  attempts: [
    {
      object: "webhook_attempt",
      id: ATTEMPT_ID,
      attempt_number: 1,
      url: WEBHOOK_URL,
      started_at: AT,
      duration_ms: 84,
      status_code: 200,
      error: null,
      response_excerpt: "ok",
    },
  ],
  event: {
    id: EVENT_ID,
    type: "message.received",
    // Abbreviated: the full message.received payload also carries messages[], assets and metadata.
    payload: {
      agent_id: PROJECT_ID,
      organization_id: ORG_ID,
      channel_id: CHANNEL_ID,
      conversation_id: CONVERSATION_ID,
      contact_id: CONTACT_ID,
      from: PHONE,
      text: "Where is my order #1042?",
      message_id: INBOUND_MESSAGE_ID,
      type: "text",
      ai_handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null, is_on_hold: false },
      contact_reference: "crm-4821",
    },
    created_at: AT,
  },
};

export const list = (data: unknown[], has_more = false) => ({ object: "list", data, has_more });
