import { defineRoute } from "@/lib/api/route";
import { IdParam, PageQuery, listOf } from "@/lib/api/schemas/common";
import { SavedReply, SavedReplyCreate, SavedReplyDeleted, SavedReplyRender, SavedReplyRenderRequest, SavedReplyUpdate } from "@/lib/api/schemas/inbox";
import { createSavedReply, deleteSavedReply, getSavedReply, listSavedReplies, renderSavedReplyFor, updateSavedReply } from "@/lib/domain/inbox";

const tag = "Saved replies";
/** Why saved-reply writes are not audited (docs/api-decisions.md "Team inbox"). */
const NOT_AUDITED = { exempt: "shared reply text for the inbox, a working aid like a draft: it reaches a customer only through a send" };

export const savedReplyRoutes = [
  defineRoute({
    method: "GET",
    path: "/saved-replies",
    operationId: "listSavedReplies",
    summary: "List the project's saved replies, newest first",
    tag,
    scope: "conversations:read",
    query: PageQuery,
    response: listOf(SavedReply, "SavedReplyList"),
    handler: ({ ctx, query }) => listSavedReplies(ctx, query),
  }),
  defineRoute({
    method: "POST",
    path: "/saved-replies",
    operationId: "createSavedReply",
    summary: "Create a saved reply",
    description:
      "`shortcut` is unique in the project (409 conflict on a duplicate). The body may use {{contact.name}}, {{contact.phone}} and {{member.name}}; any other {{…}} is refused (400).",
    tag,
    scope: "projects:write",
    audit: NOT_AUDITED,
    body: SavedReplyCreate,
    response: SavedReply,
    handler: ({ ctx, body }) => createSavedReply(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/saved-replies/{id}",
    operationId: "getSavedReply",
    summary: "Retrieve a saved reply",
    tag,
    scope: "conversations:read",
    params: IdParam,
    response: SavedReply,
    handler: ({ ctx, params }) => getSavedReply(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/saved-replies/{id}",
    operationId: "updateSavedReply",
    summary: "Change a saved reply's shortcut, title or body",
    description: "Only the fields given change. A shortcut another saved reply of the project uses is 409 conflict.",
    tag,
    scope: "projects:write",
    audit: NOT_AUDITED,
    params: IdParam,
    body: SavedReplyUpdate,
    response: SavedReply,
    handler: ({ ctx, params, body }) => updateSavedReply(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/saved-replies/{id}",
    operationId: "deleteSavedReply",
    summary: "Delete a saved reply",
    tag,
    scope: "projects:write",
    audit: NOT_AUDITED,
    params: IdParam,
    response: SavedReplyDeleted,
    handler: ({ ctx, params }) => deleteSavedReply(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/saved-replies/{id}/render",
    operationId: "renderSavedReply",
    summary: "Fill a saved reply's variables for a conversation",
    description:
      "contact.name and contact.phone come from the conversation's contact, member.name from the calling member (an API key has none). A variable without a value renders empty and is listed in `missing`. Nothing is sent or stored.",
    tag,
    scope: "conversations:read",
    audit: { exempt: "a read that takes a body: it fills text in and stores nothing" },
    params: IdParam,
    body: SavedReplyRenderRequest,
    response: SavedReplyRender,
    handler: ({ ctx, params, body }) => renderSavedReplyFor(ctx, params.id, body),
  }),
];
