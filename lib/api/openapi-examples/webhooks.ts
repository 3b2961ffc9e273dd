import type { OperationExamples } from "./types";
import { AT, DELIVERY_ID, WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_DETAIL, list } from "./fixtures";

const FAILED = {
  ...WEBHOOK_DELIVERY,
  id: "wd_01jxq5d4e5f6g7h8j9k0m1n2p3",
  event_id: "evt_01jxq5d4e5f6g7h8j9k0m1n2p4",
  event_type: "message.status",
  status: "pending",
  attempt_count: 2,
  next_attempt_at: "2026-06-18T09:31:40.000Z",
  last_status_code: 502,
  last_error: "HTTP 502",
  last_duration_ms: 312,
  completed_at: null,
};

const REDELIVERY = {
  ...WEBHOOK_DELIVERY_DETAIL,
  id: "wd_01jxq5e5f6g7h8j9k0m1n2p3q4",
  status: "pending",
  trigger: "redeliver",
  attempt_count: 0,
  next_attempt_at: AT,
  last_status_code: null,
  last_error: null,
  last_duration_ms: null,
  completed_at: null,
  attempts: [],
};

export const webhookExamples: Record<string, OperationExamples> = {
  listWebhookDeliveries: {
    response: { page: { summary: "A retrying delivery and a delivered one", value: list([FAILED, WEBHOOK_DELIVERY], true) } },
  },
  getWebhookDelivery: {
    response: { delivered: { summary: "Delivered on the first attempt", value: WEBHOOK_DELIVERY_DETAIL } },
  },
  redeliverWebhook: {
    response: { queued: { summary: "A new delivery of the same event (same event id)", value: REDELIVERY } },
  },
  replayWebhooks: {
    request: {
      failedSince: { summary: "Every event whose latest delivery failed since a date", value: { since: "2026-06-17T00:00:00Z", status: "failed" } },
      window: {
        summary: "All message.received events of one hour",
        value: { since: "2026-06-18T09:00:00Z", until: "2026-06-18T10:00:00Z", event: "message.received" },
      },
    },
    response: {
      replayed: {
        summary: "Two events queued again",
        value: { object: "webhook_replay", count: 2, delivery_ids: [DELIVERY_ID, "wd_01jxq5f6g7h8j9k0m1n2p3q4r5"] },
      },
    },
  },
};
