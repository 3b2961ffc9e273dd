import { EVENT_TYPES } from "@/lib/shared/event-types";
import type { FlowCompletedPayload, FlowStatusPayload } from "@/lib/domain/flows/events";

/**
 * Realistic sample payloads, one per event type of the spec (Events → Event types), for the local
 * test tool (`webhooks trigger`) and the docs. Shapes follow the payloads the service emits:
 * message.received (lib/domain/ingest/payload.ts), message.status (lib/domain/messages/status.ts),
 * call.event, participant.joined, contact.identity.updated (lib/domain/ingest/apply.ts). flow.completed
 * (lib/domain/flows/completion.ts) and flow.status (flows/publish-job.ts, publish.ts, status.ts) are
 * typed as the payload types their emitters build (lib/domain/flows/events.ts), so a field added or
 * renamed there fails to compile here. template.status has no emitter yet; its sample uses the spec's
 * status values and is otherwise an assumption.
 * Ids are fixed sample values in the service's id format, so samples are deterministic.
 */

/** Every event type has a sample. */
export const SAMPLE_EVENT_TYPES = EVENT_TYPES;

export type SampleEventType = (typeof SAMPLE_EVENT_TYPES)[number];

export function isSampleEventType(value: string): value is SampleEventType {
  return (SAMPLE_EVENT_TYPES as readonly string[]).includes(value);
}

const ORG = "org_01kvd1nwz0w4fwxvpr07hn2a3a";
const PROJECT = "proj_01kvd1nwz0dwptxss9ddfh86ww";
const CHANNEL = "ch_01kvd1nwz0zrw4z7s4hdcd5xyf";
const CONVERSATION = "conv_01kvd1nwz03r4g9srpk1gtha6m";
const CONTACT = "ct_01kvd1nwz0d4vxee78kg4pxgyy";
const INBOUND_MESSAGE = "msg_01kvd1nwz0sk5fszdhape1sqqz";
const OUTBOUND_MESSAGE = "msg_01kvd1nwz00zvxes136wyj99qg";
const FLOW = "flow_01kvd1nwz0mnrjwfb5fy4vwqnb";
const DISPATCH = "fd_01kvd1nwz0h8q3zt6ysk2c9m4e";
const SUBMISSION = "fs_01kvd1nwz0vngm7pcae3kteg0d";
const TEMPLATE = "tmpl_01kvd1nwz0p0b6gfjmnezmza0a";

const CUSTOMER_PHONE = "+16505551234";
const CUSTOMER_WA_ID = "16505551234";
const CUSTOMER_USER_ID = "US.13491208655302741918";
const BUSINESS_PHONE = "+15550783881";
const CONTACT_REFERENCE = "crm-customer-4821";

function messageReceived() {
  const receivedAt = "2026-06-18T09:41:07.000Z";
  const text = "Hi! Is order #4821 ready for pick-up today?";
  return {
    agent_id: PROJECT,
    organization_id: ORG,
    channel_id: CHANNEL,
    conversation_id: CONVERSATION,
    contact_id: CONTACT,
    from: CUSTOMER_PHONE,
    user_id: CUSTOMER_USER_ID,
    parent_user_id: "US.ENT.20938475610293847000",
    username: "maria.lopez",
    text,
    message_id: INBOUND_MESSAGE,
    type: "text",
    ai_handoff: { status: "AI_ACTIVE", reason: null, handoff_at: null, is_on_hold: false },
    messages: [
      {
        id: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUI0RTc2QjlGMjE1QjU4QzQ2MgA=",
        type: "text",
        text,
        received_at: receivedAt,
        media: null,
        location: null,
        interactive: null,
        replied_to: { message_id: "wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDMEI2NDk5RTFGRDc0MkEA", from: BUSINESS_PHONE.slice(1) },
      },
    ],
    assets: [],
    media: null,
    location: null,
    contact_reference: CONTACT_REFERENCE,
    customer_reference: CONTACT_REFERENCE,
    metadata: {
      platform: "PLATFORM_A",
      provider_message_id: "wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQUI0RTc2QjlGMjE1QjU4QzQ2MgA=",
      received_at: receivedAt,
      display_phone_number: BUSINESS_PHONE,
      profile_name: "Maria López",
    },
  };
}

function messageStatus() {
  return {
    message_id: OUTBOUND_MESSAGE,
    platform_message_id: "wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI5QTNDMEI2NDk5RTFGRDc0MkEA",
    conversation_id: CONVERSATION,
    contact_id: CONTACT,
    channel_id: CHANNEL,
    status: "delivered",
    timestamp: "2026-06-18T09:42:31.000Z",
    recipient_id: CUSTOMER_WA_ID,
    recipient_user_id: CUSTOMER_USER_ID,
    failure: null,
    errors: [],
    pricing: { billable: false, pricing_model: "PMP", category: "service", type: "free_customer_service" },
    conversation: { id: "a75d17ad06104c51166f948319b03c6a", origin: { type: "service" } },
  };
}

function callEvent() {
  return {
    kind: "call",
    call_id: "wacid.HBgLMTY1MDU1NTEyMzQVAgARGCAyODRQIAFRoA",
    event: "connect",
    timestamp: "2026-06-18T09:45:02.000Z",
    channel_id: CHANNEL,
    contact_id: CONTACT,
    call: {
      id: "wacid.HBgLMTY1MDU1NTEyMzQVAgARGCAyODRQIAFRoA",
      from: CUSTOMER_WA_ID,
      to: BUSINESS_PHONE.slice(1),
      event: "connect",
      timestamp: "1781775902",
      direction: "USER_INITIATED",
      session: {
        sdp_type: "offer",
        sdp: "v=0\r\no=- 7669997803033704573 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\na=rtpmap:111 opus/48000/2\r\n",
      },
    },
  };
}

/** A validated submission of the pick-up booking flow, sent to the contact in its conversation. */
function flowCompleted(): FlowCompletedPayload {
  return {
    flow_id: FLOW,
    flow_token: "svcft_Q7vN2kLp8XrT4mWz9BcY3hJd6FsG1eRa",
    dispatch_id: DISPATCH,
    submission_id: SUBMISSION,
    submission: { pickup_date: "2026-06-19", pickup_slot: "morning", notes: "Side entrance, please" },
    contact_id: CONTACT,
    conversation_id: CONVERSATION,
    channel_id: CHANNEL,
    from: CUSTOMER_PHONE,
    contact_reference: CONTACT_REFERENCE,
    customer_reference: CONTACT_REFERENCE,
    agent_id: PROJECT,
    organization_id: ORG,
    config_key: "pickup-booking",
    locale: "en",
    completed_at: "2026-06-18T09:47:55.000Z",
  };
}

/** The first publish of that flow: the publish job's DRAFT → PUBLISHED (the provider's own changes carry its message as reason). */
function flowStatus(): FlowStatusPayload {
  return {
    flow_id: FLOW,
    meta_flow_id: "1185672402954210",
    config_key: "pickup-booking",
    locale: "en",
    old_status: "DRAFT",
    new_status: "PUBLISHED",
    reason: null,
    occurred_at: "2026-06-18T08:12:40.000Z",
  };
}

function templateStatus() {
  return {
    template_id: TEMPLATE,
    provider_template_id: "924513879318405",
    name: "order_ready_for_pickup",
    language: "en_US",
    category: "UTILITY",
    previous_status: "PENDING",
    status: "APPROVED",
    reason: null,
    timestamp: "2026-06-18T07:58:19.000Z",
  };
}

function participantJoined() {
  return {
    project_id: PROJECT,
    channel_id: CHANNEL,
    contact_id: CONTACT,
    phone: CUSTOMER_PHONE,
    user_id: CUSTOMER_USER_ID,
    contact_reference: "customer-8841",
    joined_at: "2026-06-18T09:30:11.000Z",
  };
}

function contactIdentityUpdated() {
  return {
    contact_id: CONTACT,
    channel_id: CHANNEL,
    previous: { phone: CUSTOMER_PHONE, user_id: CUSTOMER_USER_ID },
    current: { phone: "+447700900123", user_id: CUSTOMER_USER_ID },
    timestamp: "2026-06-18T10:05:00.000Z",
  };
}

const BUILDERS: Record<SampleEventType, () => Record<string, unknown>> = {
  "message.received": messageReceived,
  "message.status": messageStatus,
  "call.event": callEvent,
  // Spread: the emitters pass `{ ...payload }` too (an interface has no index signature).
  "flow.completed": () => ({ ...flowCompleted() }),
  "flow.status": () => ({ ...flowStatus() }),
  "template.status": templateStatus,
  "participant.joined": participantJoined,
  "contact.identity.updated": contactIdentityUpdated,
};

/** A fresh copy of the sample payload of `type` (callers may change it). */
export function samplePayload(type: SampleEventType): Record<string, unknown> {
  return BUILDERS[type]();
}
