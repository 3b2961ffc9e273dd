import type { SimulatorContext } from "@/lib/simulator/context";
import { buildPlatformAInbound } from "@/lib/simulator/customer-a";
import { MEDIA_CUSTOMER_TYPES, parseCustomerInput } from "@/lib/simulator/customer-input";
import { buildMessengerInbound, isMessengerPlatform, MESSENGER_CUSTOMER_TYPES } from "@/lib/simulator/customer-messenger";
import { json, readJson, isRecord, simulatorError } from "@/lib/simulator/http";
import { resolveCustomerMedia, type ResolvedMedia } from "@/lib/simulator/media";
import { addressKey, type BusinessMessage } from "@/lib/simulator/state";
import { postSigned } from "@/lib/simulator/webhooks";

/**
 * The customer's side of the simulator, for a person (the dashboard's sandbox phone) or a test.
 *
 * POST /customer/messages → builds the provider's webhook for the action, signs it, POSTs it to our
 * webhook endpoint and waits for the answer: `{message_id, delivered_status}` (the provider id of the
 * customer's message, or of the message an edit / revoke / reaction names on PLATFORM_B/C; and our
 * endpoint's HTTP status). The customer's message opens (or renews) the 24-hour window.
 * GET /customer/inbox?sender_id=&address= → `{object:"list", data:[business messages, oldest first]}`.
 */
export async function customerMessage(ctx: SimulatorContext, request: Request, path: string): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok) return simulatorError(400, "The request body must be JSON");
  const parsed = parseCustomerInput(body.value);
  if (!parsed.ok) return simulatorError(400, parsed.error);
  const input = parsed.input;
  const platform = input.platform;
  if (isMessengerPlatform(platform) && !MESSENGER_CUSTOMER_TYPES[platform].has(input.type)) {
    return simulatorError(400, `${platform} has no ${input.type} messages`);
  }
  if (platform === "PLATFORM_A" && input.type === "postback") return simulatorError(400, "PLATFORM_A has no postback messages");
  if (isMessengerPlatform(platform) && (input.media?.caption || input.media?.filename)) {
    return simulatorError(400, `${platform} attachments carry no caption or file name`);
  }

  const sender = ctx.state.rememberSender(input.sender_id, platform, {
    businessAccountId: input.business_account_id,
    displayPhoneNumber: input.display_phone_number,
  });
  let media: ResolvedMedia | null = null;
  if (MEDIA_CUSTOMER_TYPES.has(input.type)) {
    media = await resolveCustomerMedia(ctx, platform, input.type, input.media ?? {}, ctx.publicBase(request, path));
    if (!media.ok) return simulatorError(400, media.error);
  }

  const at = ctx.now();
  const built =
    platform === "PLATFORM_A"
      ? buildPlatformAInbound(input, sender, media?.ok ? media.media : null, at)
      : buildMessengerInbound(input, platform, media?.ok ? media.url : null, at);

  // Edits and deletions change an earlier message; they do not open a conversation.
  if (input.type !== "edit" && input.type !== "revoke") {
    ctx.state.recordCustomerMessage(input.sender_id, addressKey(platform, input.from), at);
  }

  const outcome = await postSigned(ctx, platform, built.envelope);
  if (outcome.status === null) {
    ctx.log(`customer ${input.type} webhook not delivered`, outcome.ok ? undefined : outcome.error);
    return json(502, {
      error: { message: `Could not reach ${ctx.webhookUrl(platform)}: ${outcome.ok ? "" : outcome.error}` },
      message_id: built.id,
      delivered_status: null,
    });
  }
  return json(200, { message_id: built.id, delivered_status: outcome.status });
}

function inboxText(message: BusinessMessage): string | null {
  const body = message.body;
  const pick = (value: unknown, ...keys: string[]): unknown => {
    let current = value;
    for (const key of keys) current = isRecord(current) ? current[key] : undefined;
    return current;
  };
  const candidates = [
    pick(body, "text", "body"),
    pick(body, "interactive", "body", "text"),
    pick(body, String(message.type), "caption"),
    pick(body, "reaction", "emoji"),
    pick(body, "template", "name"),
    pick(body, "message", "text"),
    pick(body, "payload", "reaction"),
  ];
  const found = candidates.find((c) => typeof c === "string");
  return typeof found === "string" ? found : null;
}

export function customerInbox(ctx: SimulatorContext, request: Request): Response {
  const params = new URL(request.url).searchParams;
  const senderId = params.get("sender_id");
  const address = params.get("address");
  if (!senderId || !address) return simulatorError(400, "sender_id and address are required");
  const platform = ctx.state.senders.get(senderId)?.platform ?? "PLATFORM_A";
  const data = ctx.state.inbox(senderId, addressKey(platform, address)).map((m) => ({
    id: m.id,
    platform: m.platform,
    sender_id: m.sender_id,
    to: m.to,
    type: m.type,
    text: inboxText(m),
    status: m.status,
    sent_at: m.sent_at,
    body: m.body,
  }));
  return json(200, { object: "list", data });
}
