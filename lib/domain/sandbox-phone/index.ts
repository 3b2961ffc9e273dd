import type { Ctx } from "@/lib/domain/context";
import { ourInbox } from "./inbox";
import { customerChannel, postCustomerMessage } from "./simulator";

export { completeReceivedFlow, exchangeReceivedFlow, receivedFlow } from "./flows";
export { joinedTesters } from "./testers";

/**
 * The dashboard's sandbox phone: an operator acts as a customer of one of the project's channels
 * through the built-in provider simulator, which then sends our provider endpoint a signed webhook
 * exactly as the real provider would. Only available while the simulator is the provider.
 */
export interface CustomerAction {
  channel_id: string;
  from: string;
  name?: string | undefined;
  type: "text" | "image" | "video" | "audio" | "document" | "location" | "button_reply" | "list_reply";
  text?: string | undefined;
  media?: { link?: string | undefined; caption?: string | undefined; mime_type?: string | undefined; filename?: string | undefined } | undefined;
  location?: { latitude: number; longitude: number; name?: string | undefined; address?: string | undefined } | undefined;
  reply?: { id: string; title: string } | undefined;
  reply_to?: string | undefined;
}

export async function sendAsCustomer(ctx: Ctx, action: CustomerAction) {
  const { base, channel } = await customerChannel(ctx, action.channel_id, action.from);
  const { channel_id: _channelId, from, ...customer } = action;
  return postCustomerMessage(base, channel, from, customer);
}

/** What the business sent to this simulated customer on this channel, oldest first. */
export async function customerInbox(ctx: Ctx, input: { channel_id: string; from: string }) {
  const { base, channel } = await customerChannel(ctx, input.channel_id, input.from);
  const data = await ourInbox(ctx, base, channel, input.from);
  return {
    object: "list" as const,
    data: data.map((m) => ({
      object: "simulated_business_message" as const,
      id: m.id,
      type: m.type,
      text: m.text,
      status: m.status,
      sent_at: m.sent_at,
      body: m.body,
    })),
    has_more: false,
  };
}
