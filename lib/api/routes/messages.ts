import { defineRoute } from "@/lib/api/route";
import { MessageSendRequest, MessageSendResponse, toOutboundMessage } from "@/lib/api/schemas/messages";
import { sendMessage } from "@/lib/domain/messages/send";

export const messageRoutes = [
  defineRoute({
    method: "POST",
    path: "/messages",
    operationId: "sendMessage",
    summary: "Send a message of any kind on any channel",
    description:
      "Exactly one content field. Replies by conversation_id need a customer message on the channel within 24 h (else 409 outside_messaging_window; PLATFORM_A can send a template). " +
      "Sends by `to` need a dedicated channel and, when the project requires it, an active opt-in. One new message per 6 s per (platform, channel, recipient): " +
      "429 message_pair_rate_limit; retry with the same Idempotency-Key. Without a key one is generated and returned.",
    tag: "Messages",
    scope: "messages:send",
    body: MessageSendRequest,
    response: MessageSendResponse,
    handler: ({ ctx, runtime, body, idempotencyKey }) =>
      sendMessage(ctx, runtime, {
        channel_id: body.channel_id,
        conversation_id: body.conversation_id,
        to: body.to,
        message: toOutboundMessage(body),
        idempotencyKey,
      }),
  }),
];
