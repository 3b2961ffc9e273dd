import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { Conversation, HandoffRequest, Message } from "@/lib/api/schemas/contacts";
import { ConversationFilterQuery, ConversationListQuery } from "@/lib/api/schemas/conversations";
import { AssignmentRequest, ConversationCounts, Note, NoteCreate } from "@/lib/api/schemas/inbox";
import { assignConversation, countConversations, getConversation, listConversationMessages, listConversations, setHandoff } from "@/lib/domain/conversations";
import { addNote, listNotes } from "@/lib/domain/inbox";

const tag = "Conversations";

export const conversationRoutes = [
  defineRoute({
    method: "GET",
    path: "/conversations",
    operationId: "listConversations",
    summary: "List conversations, newest first; filter by contact name or phone, channel, contact, handoff, inbox view, assignee or window",
    description:
      "Every filter combines with the others (AND). `view` picks an inbox view (all, open, needs_person, mine, unassigned); `view=mine` is the calling member's and answers 422 to an API key, which asks for `assignee=<member user id>` instead. `unread_count` is the calling member's (null for a key).",
    tag,
    scope: "conversations:read",
    query: ConversationListQuery,
    response: listOf(Conversation, "ConversationList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listConversations(ctx, query)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/conversations/counts",
    operationId: "countConversations",
    summary: "How many conversations each inbox view holds",
    description:
      "The same filters as GET /conversations but `view`: each count is a view under them. `mine` and `unread` (conversations with unread customer messages) are the calling member's, null for an API key.",
    tag,
    scope: "conversations:read",
    query: ConversationFilterQuery,
    response: ConversationCounts,
    handler: ({ ctx, query }) => countConversations(ctx, query),
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
  defineRoute({
    method: "POST",
    path: "/conversations/{id}/assignment",
    operationId: "assignConversation",
    summary: "Assign a conversation to a member, or unassign it",
    description:
      "Assigning to a member (the user id of someone in the project's organization) turns the handoff on (HUMAN_ACTIVE) unless `handoff` is false; unassigning (`assignee_id: null`) leaves the handoff as it is. Someone outside the organization, or an unknown id, is 422. Audited as `conversation.assigned`.",
    tag,
    scope: "messages:send",
    audit: ["conversation.assigned"],
    params: IdParam,
    body: AssignmentRequest,
    response: Conversation,
    handler: ({ ctx, params, body }) => assignConversation(ctx, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/conversations/{id}/notes",
    operationId: "listConversationNotes",
    summary: "A conversation's private notes, oldest first",
    description:
      "Notes are for the team and are never sent to the customer. Oldest first, so they read as a thread; `starting_after` takes the last note id of the previous page.",
    tag,
    scope: "conversations:read",
    params: IdParam,
    query: PageQuery,
    response: listOf(Note, "NoteList"),
    handler: ({ ctx, params, query }) => listNotes(ctx, params.id, query),
  }),
  defineRoute({
    method: "POST",
    path: "/conversations/{id}/notes",
    operationId: "createConversationNote",
    summary: "Add a private note to a conversation",
    description:
      "The note is kept with the conversation for the team and never sent to the customer; its author is the calling member or API key. Erasing the contact deletes it. Audited as `conversation.note_added` (the note's id, not its text).",
    tag,
    scope: "messages:send",
    audit: ["conversation.note_added"],
    params: IdParam,
    body: NoteCreate,
    response: Note,
    handler: ({ ctx, params, body }) => addNote(ctx, params.id, body),
  }),
];
