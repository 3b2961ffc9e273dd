import { defineRoute } from "@/lib/api/route";
import { IdParam } from "@/lib/api/schemas/common";
import { Conversation } from "@/lib/api/schemas/contacts";
import { markConversationRead } from "@/lib/domain/inbox";

export const inboxRoutes = [
  defineRoute({
    method: "POST",
    path: "/conversations/{id}/read",
    operationId: "dashboardMarkConversationRead",
    summary: "The signed-in member has read the conversation up to now",
    description:
      "Dashboard only: read state is a member's (an API key has none). Opening a conversation in the inbox calls it; its unread_count for this member drops to 0. Answers the Conversation.",
    tag: "Dashboard: inbox",
    auth: "session",
    scope: "conversations:read",
    audit: { exempt: "a member's own read position in the inbox: no data or setting changes for anyone else" },
    params: IdParam,
    response: Conversation,
    handler: ({ ctx, params }) => markConversationRead(ctx, params.id),
  }),
];
