import type { OperationExamples } from "./types";
import { AT, EVENT_ID } from "./fixtures";
import { samplePayload } from "@/lib/domain/webhooks/samples";
import { serializeDelivery, signatureHeaders } from "@/lib/domain/webhooks/signing";

// Signed for real with a documentation-only secret, so the example verifies like a delivery would.
const EXAMPLE_SECRET = `whsec_${Buffer.from("svc documentation example secret!").toString("base64")}`;
const SIGNED_AT = new Date("2026-06-18T09:30:02.000Z");
const BODY = serializeDelivery("message.received", samplePayload("message.received"), SIGNED_AT);

const RECEIVED = {
  object: "event",
  id: EVENT_ID,
  type: "message.received",
  created_at: AT,
  body: BODY,
  headers: {
    "content-type": "application/json",
    "user-agent": "svc-webhooks/1.0",
    ...signatureHeaders({ eventId: EVENT_ID, eventType: "message.received", body: BODY, secrets: [EXAMPLE_SECRET], timestamp: SIGNED_AT }),
  },
};

export const eventStreamExamples: Record<string, OperationExamples> = {
  listenForEvents: {
    response: {
      start: {
        summary: "The first call (no after): a cursor to start from",
        value: { object: "event_batch", data: [], cursor: "evt_01jxq4q5x00000000000000000", has_more: false },
      },
      event: {
        summary: "An inbound message, signed as its webhook delivery",
        value: { object: "event_batch", data: [RECEIVED], cursor: EVENT_ID, has_more: false },
      },
    },
  },
};
