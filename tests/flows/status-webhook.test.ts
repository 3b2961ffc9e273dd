import { describe, expect, it } from "vitest";
import { normalizePlatformAWebhook } from "@/lib/domain/ingest/normalize-platform-a";

/** The provider's flows webhook: entry.id is the business account, the change has no phone number metadata. */
const envelope = (value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{ id: "waba-1", time: 1760000000, changes: [{ field: "flows", value }] }],
});

describe("flows webhook normalisation", () => {
  it("a FLOW_STATUS_CHANGE becomes a flow_status event addressed to the business account", () => {
    const events = normalizePlatformAWebhook(
      envelope({
        event: "FLOW_STATUS_CHANGE",
        message: "Flow Sign-up changed status from PUBLISHED to BLOCKED",
        flow_id: "998877",
        old_status: "PUBLISHED",
        new_status: "BLOCKED",
      }),
    );
    expect(events).toEqual([
      {
        platform: "PLATFORM_A",
        senderId: "waba-1",
        kind: "flow_status",
        flow_id: "998877",
        old_status: "PUBLISHED",
        new_status: "BLOCKED",
        message: "Flow Sign-up changed status from PUBLISHED to BLOCKED",
      },
    ]);
  });

  it.each([
    ["another flows event", { event: "ENDPOINT_ERROR_RATE", flow_id: "1", new_status: "BLOCKED" }],
    ["no flow id", { event: "FLOW_STATUS_CHANGE", new_status: "BLOCKED" }],
    ["no new status", { event: "FLOW_STATUS_CHANGE", flow_id: "1" }],
  ])("ignores %s", (_name, value) => {
    expect(normalizePlatformAWebhook(envelope(value))).toEqual([]);
  });
});
