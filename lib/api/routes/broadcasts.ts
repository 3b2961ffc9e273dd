import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import {
  Broadcast,
  BroadcastCreateRequest,
  BroadcastListQuery,
  BroadcastRecipient,
  BroadcastRecipientListQuery,
  BroadcastRecipientsAdded,
  BroadcastRecipientsRequest,
} from "@/lib/api/schemas/broadcasts";
import { z } from "@/lib/api/zod";
import { createBroadcast, getBroadcast, listBroadcasts, listRecipients } from "@/lib/domain/broadcasts/crud";
import { addRecipients, cancelBroadcast, pauseBroadcast, sendBroadcast } from "@/lib/domain/broadcasts/lifecycle";
import { resendUnknown } from "@/lib/domain/broadcasts/resend";

const tag = "Broadcasts";
const Empty = z.object({}).strict().openapi("BroadcastActionRequest");
const KEY = " Requires Idempotency-Key (400 idempotency_key_required; the same key with another body: 409 idempotency_key_reused).";

export const broadcastRoutes = [
  defineRoute({
    method: "POST",
    path: "/broadcasts",
    operationId: "createBroadcast",
    summary: "Create a broadcast of one template to many customers",
    description:
      "Scope broadcasts:write. A DRAFT for one of the project's own PLATFORM_A channels and one of its templates (by id, or name and language; " +
      "it may still be PENDING: send checks APPROVED). Recipients given here are all-or-nothing (400 with issues by `recipients.<index>`)." +
      KEY,
    tag,
    scope: "broadcasts:write",
    audit: { exempt: "a DRAFT broadcast: nothing is sent until it is sent, which is audited (broadcast.sent)" },
    idempotency: "required",
    body: BroadcastCreateRequest,
    response: Broadcast,
    handler: ({ ctx, body }) => createBroadcast(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/broadcasts",
    operationId: "listBroadcasts",
    summary: "List broadcasts, newest first, with their stats",
    description: "Scope broadcasts:read. Filter by status or channel_id.",
    tag,
    scope: "broadcasts:read",
    query: BroadcastListQuery,
    response: listOf(Broadcast, "BroadcastList"),
    handler: ({ ctx, query }) => listBroadcasts(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/broadcasts/{id}",
    operationId: "getBroadcast",
    summary: "Retrieve a broadcast and its live stats",
    description: "Scope broadcasts:read. `stats` counts the recipients by status, as status callbacks and replies move them.",
    tag,
    scope: "broadcasts:read",
    params: IdParam,
    response: Broadcast,
    handler: ({ ctx, params }) => getBroadcast(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/broadcasts/{id}/recipients",
    operationId: "addBroadcastRecipients",
    summary: "Add up to 1,000 recipients to a DRAFT or SCHEDULED broadcast",
    description:
      "Scope broadcasts:write. Each row is judged on its own: `errors` lists the rows refused (index and why: not a number, unknown contact, " +
      "parameters that do not fit the template), `duplicates` the numbers already in the broadcast or repeated in the call. Any other status: " +
      "409 broadcast_not_editable." +
      KEY,
    tag,
    scope: "broadcasts:write",
    audit: { exempt: "recipients of a broadcast not sent yet: nothing is sent until broadcast.sent" },
    idempotency: "required",
    params: IdParam,
    body: BroadcastRecipientsRequest,
    response: BroadcastRecipientsAdded,
    handler: ({ ctx, params, body }) => addRecipients(ctx, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/broadcasts/{id}/recipients",
    operationId: "listBroadcastRecipients",
    summary: "List a broadcast's recipients, newest first",
    description: "Scope broadcasts:read. Filter by status (pending, queued, sent, delivered, read, failed, skipped).",
    tag,
    scope: "broadcasts:read",
    params: IdParam,
    query: BroadcastRecipientListQuery,
    response: listOf(BroadcastRecipient, "BroadcastRecipientList"),
    handler: ({ ctx, params, query }) => listRecipients(ctx, params.id, query),
  }),
  defineRoute({
    method: "POST",
    path: "/broadcasts/{id}/send",
    operationId: "sendBroadcast",
    summary: "Send a broadcast now, at its send_at, or resume a paused one",
    description:
      "Scope broadcasts:send. The template must be APPROVED (409 template_not_approved), the channel connected (412 channel_not_ready) and " +
      "there must be recipients (422 broadcast_has_no_recipients). Sending is paced to the channel's throughput; recipients without an active " +
      "opt-in (when the project requires one) are skipped (no_opt_in). Already SENDING or SCHEDULED: returned unchanged." +
      KEY,
    tag,
    scope: "broadcasts:send",
    audit: ["broadcast.sent"],
    idempotency: "required",
    params: IdParam,
    body: Empty,
    response: Broadcast,
    handler: ({ ctx, params }) => sendBroadcast(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/broadcasts/{id}/pause",
    operationId: "pauseBroadcast",
    summary: "Pause a sending or scheduled broadcast",
    description: "Scope broadcasts:send. pause_reason becomes paused_by_user; send resumes it." + KEY,
    tag,
    scope: "broadcasts:send",
    audit: ["broadcast.paused"],
    idempotency: "required",
    params: IdParam,
    body: Empty,
    response: Broadcast,
    handler: ({ ctx, params }) => pauseBroadcast(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/broadcasts/{id}/cancel",
    operationId: "cancelBroadcast",
    summary: "Cancel a broadcast: what has not gone out is skipped",
    description: "Scope broadcasts:send. Pending recipients become skipped (cancelled); messages already handed to the provider are not recalled." + KEY,
    tag,
    scope: "broadcasts:send",
    audit: ["broadcast.cancelled"],
    idempotency: "required",
    params: IdParam,
    body: Empty,
    response: Broadcast,
    handler: ({ ctx, params }) => cancelBroadcast(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/broadcasts/{id}/resend-unknown",
    operationId: "resendUnknownBroadcastRecipients",
    summary: "Send once more the recipients whose outcome is unknown",
    description:
      "Scope broadcasts:send. A recipient whose send may have reached the customer but whose answer was lost (the sender's worker died, or " +
      "the provider did not answer in time) ends `failed` with `error_code: outcome_unknown` and is never sent again automatically " +
      "(`stats.outcome_unknown` counts them). This sends exactly those recipients once more, so a customer may get the message twice: they " +
      "become pending and the broadcast SENDING until they are settled. Only a COMPLETED broadcast (409 broadcast_not_editable otherwise); the " +
      "template must still be APPROVED and the channel connected, as for send. None to resend: returned unchanged." +
      KEY,
    tag,
    scope: "broadcasts:send",
    audit: { exempt: "retries the sends whose outcome is unknown, of a broadcast whose send was audited: traffic" },
    idempotency: "required",
    params: IdParam,
    body: Empty,
    response: Broadcast,
    handler: ({ ctx, params }) => resendUnknown(ctx, params.id),
  }),
];
