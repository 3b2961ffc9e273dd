import type { Example, OperationExamples } from "./types";
import { AT, CHANNEL_ID, CONTACT_ID, MESSAGE_ID, list } from "./fixtures";

/**
 * Examples of the broadcast operations: a spring sale of one NAMED template ({{first_name}},
 * {{code}}, header {{season}}) on the project's dedicated channel (fixtures.ts). Error messages are
 * the ones lib/domain/broadcasts (crud.ts, recipients.ts, lifecycle.ts), lib/shared/broadcasts/recipients.ts,
 * lib/domain/templates/send-check.ts and lib/api/route.ts (Idempotency-Key) produce.
 */

const BROADCAST_ID = "bc_01jxq6a1c3e5g7j9m1p3r5t7w9";
const DONE_ID = "bc_01jxq5z8b0d2f4h6k8m0p2r4t6";
const TEMPLATE_ID = "tmpl_01jxq4x9k1m3p5r7t9w1y3a5c7";
const TEMPLATE = { id: TEMPLATE_ID, name: "spring_sale", language: "en_US" };
const UNKNOWN_ID = "bc_01jxq4zzzzzzzzzzzzzzzzzzzz";
const SEND_AT = "2026-06-19T08:00:00.000Z";
const STARTED_AT = "2026-06-18T10:00:00.000Z";
const COMPLETED_AT = "2026-06-18T10:04:10.000Z";
const CALLBACK_AT = "2026-06-18T10:05:31.000Z";
const REPLIED_AT = "2026-06-18T10:12:47.000Z";

const ANA = { to: "+14155550101", parameters: { first_name: "Ana", code: "SPRING15", "header.season": "Spring" } };
const CONTACT = { contact_id: CONTACT_ID, parameters: { first_name: "Carla", code: "SPRING15", "header.season": "Spring" } };
const COMPONENTS = {
  to: "+14155550102",
  parameters: [
    { type: "header", parameters: [{ type: "text", parameter_name: "season", text: "Spring" }] },
    {
      type: "body",
      parameters: [
        { type: "text", parameter_name: "first_name", text: "Bo" },
        { type: "text", parameter_name: "code", text: "SPRING20" },
      ],
    },
  ],
};

const NO_STATS = { total: 0, pending: 0, queued: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, replied: 0, outcome_unknown: 0 };
const DRAFT = {
  object: "broadcast",
  id: BROADCAST_ID,
  name: "Spring sale",
  channel_id: CHANNEL_ID,
  template: TEMPLATE,
  status: "DRAFT",
  send_at: null,
  started_at: null,
  completed_at: null,
  pause_reason: null,
  stats: { ...NO_STATS, total: 3, pending: 3 },
  created_at: AT,
  updated_at: AT,
};
const SCHEDULED_DRAFT = { ...DRAFT, send_at: SEND_AT, stats: NO_STATS };
const SCHEDULED = { ...SCHEDULED_DRAFT, status: "SCHEDULED", stats: { ...NO_STATS, total: 12000, pending: 12000 }, updated_at: STARTED_AT };
const SENDING = {
  ...DRAFT,
  status: "SENDING",
  started_at: STARTED_AT,
  stats: { total: 12000, pending: 7150, queued: 40, sent: 1900, delivered: 2650, read: 180, failed: 12, skipped: 68, replied: 23, outcome_unknown: 0 },
  updated_at: STARTED_AT,
};
const PAUSED = { ...SENDING, status: "PAUSED", pause_reason: "paused_by_user", updated_at: "2026-06-18T10:01:30.000Z" };
const THROUGHPUT_PAUSED = { ...PAUSED, pause_reason: "throughput_errors" };
const CANCELLED = {
  ...PAUSED,
  status: "CANCELLED",
  pause_reason: "paused_by_user",
  completed_at: "2026-06-18T10:02:00.000Z",
  stats: { ...PAUSED.stats, pending: 0, skipped: 7218 },
  updated_at: "2026-06-18T10:02:00.000Z",
};
/** Every recipient handed to the provider: COMPLETED, while delivery and read callbacks keep moving the stats. */
const COMPLETED = {
  ...DRAFT,
  id: DONE_ID,
  name: "May newsletter",
  status: "COMPLETED",
  started_at: STARTED_AT,
  completed_at: COMPLETED_AT,
  stats: { total: 12000, pending: 0, queued: 0, sent: 2210, delivered: 7930, read: 1574, failed: 38, skipped: 248, replied: 311, outcome_unknown: 0 },
  updated_at: COMPLETED_AT,
};
/** The run's worker died twice while sending: 14 recipients' sends may or may not have reached them. */
const COMPLETED_UNKNOWN = { ...COMPLETED, stats: { ...COMPLETED.stats, failed: 52, outcome_unknown: 14, sent: 2196 } };
/** resend-unknown: those 14 are pending again and the broadcast sends them. */
const RESENDING = {
  ...COMPLETED_UNKNOWN,
  status: "SENDING",
  completed_at: null,
  stats: { ...COMPLETED_UNKNOWN.stats, pending: 14, failed: 38, outcome_unknown: 0 },
  updated_at: CALLBACK_AT,
};

const recipient = (id: string, fields: Record<string, unknown>) => ({
  object: "broadcast_recipient",
  id,
  to: "14155550101",
  contact_id: null,
  status: "pending",
  skip_reason: null,
  message_id: null,
  error: null,
  error_code: null,
  replied_at: null,
  updated_at: AT,
  ...fields,
});
const READ = recipient("bcr_01jxq6b2d4f6h8k0m2p4r6t8v0", {
  to: "14155550199",
  contact_id: CONTACT_ID,
  status: "read",
  message_id: MESSAGE_ID,
  replied_at: REPLIED_AT,
  updated_at: REPLIED_AT,
});
const FAILED = recipient("bcr_01jxq6b2d4f6h8k0m2p4r6t8v1", {
  to: "14155550102",
  status: "failed",
  message_id: "msg_01jxq6c3e5g7j9m1p3r5t7w9y1",
  error: "131026: Message undeliverable",
  error_code: "131026",
  updated_at: CALLBACK_AT,
});
/** Handed to the provider when the sender's worker died, before it heard the answer (attempts.ts). */
const UNKNOWN = recipient("bcr_01jxq6b2d4f6h8k0m2p4r6t8v3", {
  to: "14155550104",
  status: "failed",
  message_id: "msg_01jxq6c3e5g7j9m1p3r5t7w9y2",
  error:
    "outcome_unknown: Its sender stopped after handing the message to the provider and before it heard the answer. It may have reached the customer, " +
    "so it is not sent again automatically; resend it on purpose with POST /broadcasts/{id}/resend-unknown.",
  error_code: "outcome_unknown",
  updated_at: CALLBACK_AT,
});
const SKIPPED = recipient("bcr_01jxq6b2d4f6h8k0m2p4r6t8v2", { to: "14155550103", status: "skipped", skip_reason: "no_opt_in", updated_at: STARTED_AT });

const notFound: Record<string, Example> = {
  notFound: {
    summary: "No such broadcast in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No broadcast with id '${UNKNOWN_ID}'.` },
  },
};

const keyRequired: Record<string, Example> = {
  idempotencyKeyRequired: {
    summary: "No Idempotency-Key header: every broadcast write needs one",
    value: { error: "idempotency_key_required", message: "This operation needs an Idempotency-Key header (1 to 200 characters)." },
  },
};

/** decideOrThrow (lifecycle.ts): the action is refused in this status. */
const notEditable = (status: string, action: string): Example => ({
  summary: `The broadcast is ${status}: ${action} is refused`,
  value: {
    error: "broadcast_not_editable",
    message: `Broadcast ${DONE_ID} is ${status}: it cannot ${action} any more.`,
    broadcast_id: DONE_ID,
    status,
  },
});

const createErrors: Record<number, Record<string, Example>> = {
  400: {
    ...keyRequired,
    badRecipients: {
      summary: "Recipients given at creation are all-or-nothing: issues by recipients.<index>",
      value: {
        error: "invalid_request",
        message: "Some recipients are not valid, so nothing was created: see issues (or add them later with POST /broadcasts/{id}/recipients).",
        issues: {
          "recipients.1": ["'+1 415 CALL NOW' is not a phone number: write it in international format with its country code, like +14155550123."],
          "recipients.2": ["Missing template variable: code."],
        },
      },
    },
    sendAtPast: {
      summary: "send_at in the past",
      value: { error: "invalid_request", message: "send_at must be in the future.", issues: { send_at: ["In the past: leave it out to send now."] } },
    },
  },
  404: {
    channelNotFound: {
      summary: "channel_id is not the project's channel",
      value: { error: "not_found", message: "No channel with id 'ch_01jxq4zzzzzzzzzzzzzzzzzzzz'." },
    },
    templateNotFound: {
      summary: "No such template on this channel",
      value: {
        error: "not_found",
        message: `Channel ${CHANNEL_ID} has no template with 'spring_sale' in fr. GET /templates?channel_id=${CHANNEL_ID} lists its templates.`,
        issues: { template: ["Unknown template on this channel."] },
      },
    },
  },
  412: {
    sandbox: {
      summary: "The shared sandbox cannot send templates",
      value: {
        error: "channel_not_ready",
        message: "The shared sandbox cannot send templates, so it cannot carry a broadcast. Connect a dedicated PLATFORM_A channel (POST /channels).",
        channel_id: "ch_sandbox",
        blockers: ["SANDBOX_TEMPLATES_NOT_SUPPORTED"],
      },
    },
  },
  422: {
    unsupportedChannel: {
      summary: "A channel without templates",
      value: {
        error: "feature_unsupported_on_channel",
        message: "Broadcasts go out through the project's own PLATFORM_A channel (templates exist only there).",
        channel_id: "ch_01jxq5c3d4e5f6g7h8j9k0m1n2",
        platform: "PLATFORM_B",
      },
    },
  },
};

const sendErrors: Record<number, Record<string, Example>> = {
  400: keyRequired,
  404: notFound,
  409: {
    completed: notEditable("COMPLETED", "send"),
    templateNotApproved: {
      summary: "The template is not APPROVED (still in review, rejected, paused or disabled)",
      value: {
        error: "template_not_approved",
        message: `Template ${TEMPLATE_ID} ('spring_sale', en_US) is PENDING: the provider is still reviewing it. Send it once it is APPROVED (the template.status event says when).`,
        template_id: TEMPLATE_ID,
        template_status: "PENDING",
      },
    },
  },
  412: {
    channelNotConnected: {
      summary: "The channel is not connected",
      value: {
        error: "channel_not_ready",
        message: `Channel ${CHANNEL_ID} is disconnected; connect it again to send this broadcast.`,
        channel_id: CHANNEL_ID,
        blockers: ["CHANNEL_NOT_CONNECTED"],
      },
    },
  },
  422: {
    noRecipients: {
      summary: "Nobody to send to yet",
      value: {
        error: "broadcast_has_no_recipients",
        message: `Broadcast ${BROADCAST_ID} has no recipients: add them with POST /broadcasts/${BROADCAST_ID}/recipients first.`,
        broadcast_id: BROADCAST_ID,
      },
    },
  },
};

export const broadcastExamples: Record<string, OperationExamples> = {
  createBroadcast: {
    request: {
      withRecipients: {
        summary: "A draft with its first recipients: variables as a map, by number or by contact",
        value: { name: "Spring sale", channel_id: CHANNEL_ID, template: { name: "spring_sale", language: "en_US" }, recipients: [ANA, CONTACT, COMPONENTS] },
      },
      scheduled: {
        summary: "Scheduled: starts at send_at once send is called; recipients added later",
        value: { name: "Spring sale", channel_id: CHANNEL_ID, template: { id: TEMPLATE_ID }, send_at: SEND_AT },
      },
    },
    response: {
      draft: { summary: "A DRAFT with three pending recipients", value: DRAFT },
      scheduled: { summary: "A DRAFT with send_at, no recipients yet", value: SCHEDULED_DRAFT },
    },
    errors: createErrors,
  },
  listBroadcasts: {
    response: {
      page: { summary: "Newest first, each with its live stats", value: list([SENDING, COMPLETED]) },
      paused: { summary: "?status=PAUSED", value: list([THROUGHPUT_PAUSED]) },
    },
  },
  getBroadcast: {
    response: {
      sending: { summary: "Sending: stats move as recipients are sent and callbacks arrive", value: SENDING },
      completed: { summary: "Every recipient handed to the provider; delivered, read and replied still grow", value: COMPLETED },
      autoPaused: { summary: "Paused by the service: the provider kept refusing for throughput", value: THROUGHPUT_PAUSED },
    },
    errors: { 404: notFound },
  },
  addBroadcastRecipients: {
    request: {
      chunk: { summary: "Up to 1,000 rows per call: by number, by contact, or with full components", value: { recipients: [ANA, CONTACT, COMPONENTS] } },
    },
    response: {
      added: { summary: "All rows added", value: { object: "broadcast_recipients_added", broadcast_id: BROADCAST_ID, added: 3, duplicates: 0, errors: [] } },
      partial: {
        summary: "Each row judged on its own: refused rows by index, repeated numbers counted as duplicates",
        value: {
          object: "broadcast_recipients_added",
          broadcast_id: BROADCAST_ID,
          added: 997,
          duplicates: 1,
          errors: [
            { index: 4, message: "No contact with id 'ct_01jxq4zzzzzzzzzzzzzzzzzzzz' in this project." },
            { index: 311, message: "Unknown template variable: firstname. It takes first_name, code, header.season." },
          ],
        },
      },
    },
    errors: {
      400: keyRequired,
      404: notFound,
      409: {
        notEditable: {
          summary: "Recipients are added only while DRAFT or SCHEDULED",
          value: {
            error: "broadcast_not_editable",
            message: `Broadcast ${BROADCAST_ID} is SENDING: recipients can only be added while it is DRAFT or SCHEDULED. Create a new broadcast for more recipients.`,
            broadcast_id: BROADCAST_ID,
            status: "SENDING",
          },
        },
      },
    },
  },
  listBroadcastRecipients: {
    response: {
      page: {
        summary: "Newest first: read (and replied), failed with the provider's error, skipped without opt-in",
        value: list([SKIPPED, FAILED, READ], true),
      },
      failed: { summary: "?status=failed: one the provider refused, one whose outcome is unknown", value: list([UNKNOWN, FAILED]) },
    },
    errors: { 404: notFound },
  },
  sendBroadcast: {
    request: { empty: { summary: "No body fields", value: {} } },
    response: {
      sending: { summary: "Sending now, paced to the channel's throughput", value: { ...SENDING, stats: { ...NO_STATS, total: 12000, pending: 12000 } } },
      scheduled: { summary: "A DRAFT with send_at ahead waits SCHEDULED", value: SCHEDULED },
      resumed: { summary: "A PAUSED broadcast resumes: pause_reason cleared", value: { ...SENDING, updated_at: "2026-06-18T10:03:00.000Z" } },
    },
    errors: sendErrors,
  },
  pauseBroadcast: {
    request: { empty: { summary: "No body fields", value: {} } },
    response: { paused: { summary: "Paused: send resumes it", value: PAUSED } },
    errors: { 400: keyRequired, 404: notFound, 409: { draft: notEditable("DRAFT", "pause") } },
  },
  cancelBroadcast: {
    request: { empty: { summary: "No body fields", value: {} } },
    response: { cancelled: { summary: "Pending recipients skipped (cancelled); messages already sent are not recalled", value: CANCELLED } },
    errors: { 400: keyRequired, 404: notFound, 409: { completed: notEditable("COMPLETED", "cancel") } },
  },
  resendUnknownBroadcastRecipients: {
    request: { empty: { summary: "No body fields", value: {} } },
    response: {
      resending: { summary: "The 14 recipients whose outcome was unknown are pending again and being sent", value: RESENDING },
      nothingToResend: { summary: "No recipient's outcome is unknown: returned unchanged, nothing is sent", value: COMPLETED },
    },
    errors: {
      400: keyRequired,
      404: notFound,
      409: {
        sending: {
          summary: "Still SENDING: what is unknown is settled when it completes (or pause it first)",
          value: {
            error: "broadcast_not_editable",
            message: `Broadcast ${BROADCAST_ID} is SENDING: recipients whose outcome is unknown can be resent once it is COMPLETED or PAUSED.`,
            broadcast_id: BROADCAST_ID,
            status: "SENDING",
          },
        },
      },
    },
  },
};
