import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Message } from "@/lib/api/schemas/contacts";
import { MessageSendRequest, MessageSendResponse, toOutboundMessage } from "@/lib/api/schemas/messages";
import { getMessage, listMessages } from "@/lib/domain/messages/read";
import { sendMessage } from "@/lib/domain/messages/send";

const tag = "Messages";

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
    tag,
    scope: "messages:send",
    audit: { exempt: "message traffic, not configuration" },
    body: MessageSendRequest,
    response: MessageSendResponse,
    // The Idempotency-Key is claimed by the send's first read: one round trip fewer per send.
    foldClaim: true,
    handler: ({ ctx, body, idempotencyKey, answerRecord, claim }) =>
      sendMessage(ctx, {
        channel_id: body.channel_id,
        conversation_id: body.conversation_id,
        to: body.to,
        message: toOutboundMessage(body),
        idempotencyKey,
        // The send's answer is this route's answer: it is stored with the message, in one statement.
        record: answerRecord,
        claim,
      }),
  }),
  defineRoute({
    method: "GET",
    path: "/messages",
    operationId: "listMessages",
    summary: "List the project's messages, newest first",
    description:
      "Inbound and outbound messages of every conversation, with their structured content (interactive, location, contacts, template, reaction, sticker).",
    tag,
    scope: "conversations:read",
    query: PageQuery,
    response: listOf(Message, "MessageList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listMessages(ctx, query)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/messages/{id}",
    operationId: "getMessage",
    summary: "Retrieve a message",
    tag,
    scope: "conversations:read",
    params: IdParam,
    response: Message,
    handler: ({ ctx, params }) => getMessage(ctx, params.id),
  }),
];
