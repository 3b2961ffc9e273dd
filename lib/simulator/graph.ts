import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { SimulatorContext } from "@/lib/simulator/context";
import { admitFlowMessage } from "@/lib/simulator/flows-send";
import { bearerToken, graphError, invalidParameter, invalidToken, isRecord, json, readJson } from "@/lib/simulator/http";
import { instagramMid, messengerMid, wamid } from "@/lib/simulator/ids";
import { addressKey, type BusinessMessage } from "@/lib/simulator/state";
import { validatePlatformABody } from "@/lib/simulator/validate-a";
import { validateMessengerBody } from "@/lib/simulator/validate-messenger";
import { throughputRefusal } from "@/lib/simulator/throughput";
import { scheduleStatusCallbacks } from "@/lib/simulator/webhooks";

/**
 * `POST /graph/{sender_id}/messages`: the one Graph call the adapters make.
 *
 * The platform is the sender's (learned from customer messages); an unknown sender is PLATFORM_A
 * when the body says messaging_product "whatsapp", else a Send API sender with no conversation yet.
 * Checks, in the provider's order: token (190), body (100), then for PLATFORM_A
 *   - the number's throughput (80 a second unless set, throughput.ts): 130429 "Rate limit hit",
 *   - recipient number ending in "0000": 131026 "Message undeliverable" (a test hook: such numbers
 *     behave as numbers that cannot receive messages),
 *   - no customer message in the last 24 h and not a template: 131047 "Re-engagement message",
 *   - a previous message to the same recipient less than 6 s ago: 131056 pair rate limit,
 *   - an interactive Flow message whose flow cannot be sent (flows-send.ts),
 * and for PLATFORM_B/C the Send API's equivalents: outside the window (#10, subcode 2018278) and,
 * for the same 6 s pairing, #613 rate limit. Accepted sends answer in the provider's shape and
 * schedule signed status callbacks.
 */
function senderPlatform(ctx: SimulatorContext, senderId: string, body: unknown): ProviderPlatform | null {
  const known = ctx.state.senders.get(senderId);
  if (known) return known.platform;
  return isRecord(body) && body.messaging_product !== undefined ? "PLATFORM_A" : null;
}

export async function sendMessage(ctx: SimulatorContext, request: Request, senderId: string): Promise<Response> {
  if (!bearerToken(request)) return invalidToken();
  const parsed = await readJson(request);
  if (!parsed.ok) return invalidParameter("The request body must be valid JSON.", true);
  const body = parsed.value;
  const platform = senderPlatform(ctx, senderId, body);
  return platform === "PLATFORM_A" ? sendPlatformA(ctx, senderId, body) : sendMessengerShaped(ctx, platform, senderId, body);
}

function sendPlatformA(ctx: SimulatorContext, senderId: string, body: unknown): Response {
  const problem = validatePlatformABody(body);
  if (problem || !isRecord(body)) return invalidParameter(problem ?? "Invalid body.", true);
  const input = String(body.to);
  const to = addressKey("PLATFORM_A", input);
  const type = typeof body.type === "string" ? body.type : "text";
  const at = ctx.now();
  if (ctx.state.throughput.refuses(senderId, at)) return throughputRefusal();
  if (to.endsWith("0000")) {
    return graphError({
      status: 400,
      code: 131026,
      message: "(#131026) Message undeliverable",
      details: "Unable to deliver message. The recipient's number cannot receive messages.",
      whatsapp: true,
    });
  }
  if (type !== "template" && !ctx.state.withinWindow(senderId, to, at)) {
    return graphError({
      status: 400,
      code: 131047,
      message: "(#131047) Re-engagement message",
      details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
      whatsapp: true,
    });
  }
  if (ctx.state.paced(senderId, to, at)) {
    return graphError({
      status: 400,
      code: 131056,
      subcode: 2494071,
      message: "(#131056) (Business Account, Consumer Account) pair rate limit hit",
      details: "Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.",
      whatsapp: true,
    });
  }
  const flowRefusal = admitFlowMessage(ctx.state, body, at);
  if (flowRefusal) return flowRefusal;
  ctx.state.senderInfo(senderId, "PLATFORM_A");
  const message: BusinessMessage = {
    id: wamid(to),
    platform: "PLATFORM_A",
    sender_id: senderId,
    to,
    type,
    body,
    sent_at: at.toISOString(),
    status: "accepted",
  };
  ctx.state.recordBusinessMessage(message, at);
  ctx.state.throughput.accept(senderId, at);
  scheduleStatusCallbacks(ctx, message);
  const accepted: Record<string, unknown> = { id: message.id };
  if (type === "template") accepted.message_status = "accepted";
  return json(200, { messaging_product: "whatsapp", contacts: [{ input, wa_id: to }], messages: [accepted] });
}

function outsideWindow(): Response {
  return graphError({
    status: 400,
    code: 10,
    subcode: 2018278,
    message: "(#10) This message is sent outside of allowed window.",
    type: "OAuthException",
  });
}

function sendMessengerShaped(ctx: SimulatorContext, platform: ProviderPlatform | null, senderId: string, body: unknown): Response {
  const problem = validateMessengerBody(platform ?? "PLATFORM_C", body);
  if (problem || !isRecord(body) || !isRecord(body.recipient)) return invalidParameter(problem ?? "Invalid body.", false);
  const to = String(body.recipient.id);
  const at = ctx.now();
  // A sender the simulator never heard from has no conversations, so nothing can be inside a window.
  if (!platform || !ctx.state.withinWindow(senderId, to, at)) return outsideWindow();
  const action = typeof body.sender_action === "string" ? body.sender_action.toLowerCase() : null;
  if (action === "typing_on" || action === "typing_off" || action === "mark_seen") return json(200, { recipient_id: to });
  if (action === null && ctx.state.paced(senderId, to, at)) {
    return graphError({ status: 400, code: 613, message: "(#613) Calls to this api have exceeded the rate limit.", type: "OAuthException" });
  }
  const id = platform === "PLATFORM_B" ? instagramMid(senderId) : messengerMid();
  const message: BusinessMessage = {
    id,
    platform,
    sender_id: senderId,
    to,
    type: action ?? messengerType(body.message),
    body,
    sent_at: at.toISOString(),
    status: "accepted",
  };
  if (action) {
    // A reaction is not a message of its own on these platforms: no mid, no receipts. Kept for the inbox.
    ctx.state.recordBusinessMessage({ ...message, type: "reaction" }, at, false);
    return json(200, { recipient_id: to });
  }
  ctx.state.recordBusinessMessage(message, at);
  scheduleStatusCallbacks(ctx, message);
  return json(200, { recipient_id: to, message_id: id });
}

function messengerType(message: unknown): string {
  if (!isRecord(message)) return "text";
  if (isRecord(message.attachment) && typeof message.attachment.type === "string") return message.attachment.type;
  return message.quick_replies ? "quick_replies" : "text";
}
