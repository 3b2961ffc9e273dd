import type { SimulatorContext } from "@/lib/simulator/context";
import { buildPlatformAInbound } from "@/lib/simulator/customer-a";
import { MEDIA_CUSTOMER_TYPES, parseCustomerInput } from "@/lib/simulator/customer-input";
import { buildMessengerInbound, isMessengerPlatform, MESSENGER_CUSTOMER_TYPES } from "@/lib/simulator/customer-messenger";
import { json, readJson, isRecord, simulatorError } from "@/lib/simulator/http";
import { resolveCustomerMedia, type ResolvedMedia } from "@/lib/simulator/media";
import { addressKey, type BusinessMessage } from "@/lib/simulator/state";
import { deliverCustomerMessage } from "@/lib/simulator/customer-delivery";

/**
 * The customer's side of the simulator, for a person (the dashboard's sandbox phone) or a test.
 *
 * POST /customer/messages → builds the provider's webhook for the action, signs it, POSTs it to our
 * webhook endpoint (retried as the provider retries) and answers once the endpoint took it:
 * `{message_id, delivered_status, attempts}` (the provider id of the customer's message, or of the
 * message an edit / revoke / reaction names on PLATFORM_B/C; our endpoint's HTTP status), or why it
 * has not yet (customer-delivery.ts). The customer's message opens (or renews) the 24-hour window.
 * GET /customer/inbox?sender_id=&address=[&wait=&count=] → `{object:"list", data:[business messages, oldest first]}`.
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

  return deliverCustomerMessage(ctx, platform, built.envelope, built.id, `customer ${input.type}`);
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

/** The longest `wait` an inbox read may ask for, in seconds. */
const MAX_INBOX_WAIT_S = 30;
const INBOX_POLL_MS = 50;

/**
 * `?wait=<seconds>` (0 to 30) holds the answer until the inbox has `count` messages (default 1): a
 * business send is queued, so a script that reads right after sending (README "Try the sandbox")
 * would otherwise see the inbox as it was a moment before.
 */
export async function customerInbox(ctx: SimulatorContext, request: Request): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const senderId = params.get("sender_id");
  const address = params.get("address");
  if (!senderId || !address) return simulatorError(400, "sender_id and address are required");
  const wait = params.get("wait") ?? "0";
  const count = params.get("count") ?? "1";
  if (!/^\d+$/.test(wait) || Number(wait) > MAX_INBOX_WAIT_S) return simulatorError(400, `wait is a whole number of seconds from 0 to ${MAX_INBOX_WAIT_S}`);
  if (!/^\d+$/.test(count) || Number(count) < 1) return simulatorError(400, "count is a whole number from 1");
  const platform = () => ctx.state.senders.get(senderId)?.platform ?? "PLATFORM_A";
  const messages = () => ctx.state.inbox(senderId, addressKey(platform(), address));
  const deadline = Date.now() + Number(wait) * 1000;
  while (messages().length < Number(count) && Date.now() < deadline) {
    if (!(await ctx.sleep(Math.min(INBOX_POLL_MS, deadline - Date.now())))) break;
  }
  const data = messages().map((m) => ({
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
