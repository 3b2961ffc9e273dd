import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Conversation, HandoffRequest, Message } from "@/lib/api/schemas/contacts";
import { ConversationListQuery } from "@/lib/api/schemas/conversations";
import { getConversation, listConversationMessages, listConversations, setHandoff } from "@/lib/domain/conversations";

const tag = "Conversations";

export const conversationRoutes = [
  defineRoute({
    method: "GET",
    path: "/conversations",
    operationId: "listConversations",
    summary: "List conversations, newest first; filter by contact name or phone, channel, contact or handoff",
    tag,
    scope: "conversations:read",
    query: ConversationListQuery,
    response: listOf(Conversation, "ConversationList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listConversations(ctx, query)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/conversations/{id}",
    operationId: "getConversation",
    summary: "Retrieve a conversation",
    tag,
    scope: "conversations:read",
    params: IdParam,
    response: Conversation,
    handler: ({ ctx, params }) => getConversation(ctx, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/conversations/{id}/messages",
    operationId: "listConversationMessages",
    summary: "A conversation's messages, newest first",
    tag,
    scope: "conversations:read",
    params: IdParam,
    query: PageQuery,
    response: listOf(Message, "MessageList"),
    handler: async ({ ctx, params, query }) => ({ object: "list" as const, ...(await listConversationMessages(ctx, params.id, query)) }),
  }),
  defineRoute({
    method: "POST",
    path: "/conversations/{id}/handoff",
    operationId: "setConversationHandoff",
    summary: "Turn human handoff on or off for a conversation",
    tag,
    scope: "messages:send",
    audit: {
      exempt: "a conversation's working state (a person is answering), toggled as messages flow; taking a thread from the agent is audited on thread-control",
    },
    params: IdParam,
    body: HandoffRequest,
    response: Conversation,
    handler: ({ ctx, params, body }) => setHandoff(ctx, params.id, body),
  }),
];
