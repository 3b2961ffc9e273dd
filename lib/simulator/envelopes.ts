import type { ProviderPlatform } from "@/lib/ports/provider/types";
import type { BusinessMessage, SenderInfo, SimulatorState } from "@/lib/simulator/state";

/**
 * The provider's webhook envelopes.
 *
 * PLATFORM_A (Cloud API), field "messages":
 *   {object:"whatsapp_business_account", entry:[{id:<business account id>, changes:[{field:"messages",
 *     value:{messaging_product:"whatsapp", metadata:{display_phone_number, phone_number_id},
 *            contacts?:[{profile:{name}, wa_id}], messages?:[...], statuses?:[...]}}]}]}
 *   Timestamps are Unix seconds as strings.
 *
 * PLATFORM_B / PLATFORM_C (Messenger Platform):
 *   {object:"instagram"|"page", entry:[{id:<account or page id>, time:<ms>, messaging:[{sender:{id},
 *     recipient:{id}, timestamp:<ms>, message|delivery|read|reaction|postback|message_edit: {...}}]}]}
 */
export type Envelope = Record<string, unknown>;

export function unixSeconds(at: Date): string {
  return String(Math.floor(at.getTime() / 1000));
}

export function platformAEnvelope(senderId: string, sender: SenderInfo, value: Record<string, unknown>): Envelope {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: sender.displayPhoneNumber, phone_number_id: senderId },
              ...value,
            },
            field: "messages",
          },
        ],
      },
    ],
  };
}

export function messengerEnvelope(platform: ProviderPlatform, entryId: string, at: Date, item: Record<string, unknown>): Envelope {
  return {
    object: platform === "PLATFORM_B" ? "instagram" : "page",
    entry: [{ id: entryId, time: at.getTime(), messaging: [item] }],
  };
}

export type StatusName = "sent" | "delivered" | "read";

/**
 * One PLATFORM_A status item. sent and delivered carry conversation and pricing (service replies
 * inside the window are free; templates are billed, reported here as utility); read carries neither.
 */
export function platformAStatusItem(state: SimulatorState, message: BusinessMessage, status: StatusName, at: Date): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: message.id,
    status,
    timestamp: unixSeconds(at),
    recipient_id: message.to,
  };
  if (status !== "read") {
    const template = message.type === "template";
    const category = template ? "utility" : "service";
    const conversation = state.conversation(message.sender_id, message.to, at);
    item.conversation =
      status === "sent"
        ? { id: conversation.id, expiration_timestamp: String(Math.floor(conversation.expiresAt / 1000)), origin: { type: category } }
        : { id: conversation.id, origin: { type: category } };
    item.pricing = template
      ? { billable: true, pricing_model: "PMP", type: "regular", category }
      : { billable: false, pricing_model: "PMP", type: "free_customer_service", category };
  }
  return item;
}

/** The echo of a business message (PLATFORM_B/C "sent"): the message as the page/account sent it. */
export function messengerEcho(message: BusinessMessage, at: Date): Record<string, unknown> {
  const sent = (message.body.message ?? {}) as Record<string, unknown>;
  const echo: Record<string, unknown> = { mid: message.id, is_echo: true };
  if (typeof sent.text === "string") echo.text = sent.text;
  const attachment = sent.attachment as { type?: unknown; payload?: { url?: unknown } } | undefined;
  if (attachment && typeof attachment.type === "string") {
    echo.attachments = [{ type: attachment.type, payload: { url: attachment.payload?.url ?? null } }];
  }
  if (Array.isArray(sent.quick_replies)) echo.quick_replies = sent.quick_replies;
  return {
    sender: { id: message.sender_id },
    recipient: { id: message.to },
    timestamp: at.getTime(),
    message: echo,
  };
}

/** PLATFORM_C delivery receipt; PLATFORM_B has none (its read receipt names the mid instead). */
export function messengerDelivery(message: BusinessMessage, at: Date): Record<string, unknown> {
  return {
    sender: { id: message.to },
    recipient: { id: message.sender_id },
    timestamp: at.getTime(),
    delivery: { mids: [message.id], watermark: at.getTime() },
  };
}

export function messengerRead(message: BusinessMessage, at: Date): Record<string, unknown> {
  return {
    sender: { id: message.to },
    recipient: { id: message.sender_id },
    timestamp: at.getTime(),
    read: message.platform === "PLATFORM_B" ? { mid: message.id } : { watermark: at.getTime() },
  };
}
