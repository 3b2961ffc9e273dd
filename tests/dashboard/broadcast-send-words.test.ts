import { describe, expect, it } from "vitest";
import { actionErrorText, resumeConfirmation, sendConfirmation } from "@/components/broadcasts/model/send-words";
import { ApiError } from "@/lib/client/api";

/**
 * What the broadcast page says before it puts messages on the wire, and after the server refuses:
 * the real template, count and channel, and a next step in plain words instead of the API's ids.
 */

const context = { templateName: "pickup_ready", channelName: "Main line (+14155550100)" };
const refusal = (status: number, code: string, message: string, body: Record<string, unknown> = {}) =>
  new ApiError({ status, code, message, requestId: "req_123", body: { error: code, message, ...body } });

describe("sendConfirmation", () => {
  it("names the template, the recipient count and the channel in the question", () => {
    const words = sendConfirmation({ ...context, count: 1250, scheduledFor: null });
    expect(words.title).toBe("Send pickup_ready to 1,250 recipients on Main line (+14155550100)?");
    expect(words.confirmLabel).toBe("Send to 1,250 recipients");
    expect(words.description).toContain("messages already sent stay sent");
  });

  it("says one recipient in the singular and asks to schedule when the broadcast has a start time", () => {
    const words = sendConfirmation({ ...context, count: 1, scheduledFor: "Dec 1, 2026, 9:00 AM" });
    expect(words.title).toBe("Schedule pickup_ready to 1 recipient on Main line (+14155550100)?");
    expect(words.description).toContain("At Dec 1, 2026, 9:00 AM");
  });

  it("asks before resuming, counting only the recipients not sent yet", () => {
    expect(resumeConfirmation({ ...context, count: 20 }).title).toBe("Resume sending pickup_ready to 20 recipients on Main line (+14155550100)?");
  });
});

describe("actionErrorText", () => {
  it("turns each refusal of a send into a sentence with a next step and without the API's ids", () => {
    const cases = [
      refusal(422, "broadcast_has_no_recipients", "Broadcast bc_1 has no recipients: add them with POST /broadcasts/bc_1/recipients first."),
      refusal(409, "template_not_approved", "Template tpl_1 ('pickup_ready', en_US) is PAUSED: ...", { template_id: "tpl_1" }),
      refusal(412, "channel_not_ready", "Channel ch_1 is disconnected; connect it again to send this broadcast.", { channel_id: "ch_1" }),
      refusal(409, "broadcast_not_editable", "Broadcast bc_1 is SENDING: a SENDING broadcast cannot send.", { status: "SENDING" }),
    ];
    const texts = cases.map((error) => actionErrorText(error, context));
    expect(texts[0]).toBe("This broadcast has no recipients yet, so nothing was sent. Add them below (upload a CSV or paste numbers), then send it again.");
    expect(texts[1]).toContain("pickup_ready is not approved by the provider right now, so nothing was sent. Check it on the Templates page");
    expect(texts[2]).toBe("Main line (+14155550100) can't send right now, so nothing was sent. Reconnect it on the Channels page, then send again.");
    expect(texts[3]).toContain("(it is already sending)");
    for (const text of texts) expect(text).not.toMatch(/\b(bc|tpl|ch)_1\b|POST \//);
  });

  it("says that pressing again is safe when the server failed or could not be reached, quoting the request id", () => {
    expect(actionErrorText(refusal(503, "unavailable", "Limiter down"), context)).toBe(
      "Something went wrong on our side. Pressing the button again is safe: nobody gets the message twice. If it keeps failing, contact support with request id req_123.",
    );
    expect(actionErrorText(new ApiError({ status: 0, code: "network_error", message: "Failed to fetch" }), context)).toContain("Couldn't reach svc");
  });

  it("keeps the server's own words for a refusal it has no sentence for", () => {
    expect(actionErrorText(refusal(400, "invalid_request", "send_at must be in the future."), context)).toBe("send_at must be in the future.");
  });
});
