import { defineRoute } from "@/lib/api/route";
import { EventBatch, EventListenQuery } from "@/lib/api/schemas/event-stream";
import { listenForEvents } from "@/lib/domain/webhooks/listen";

export const eventStreamRoutes = [
  defineRoute({
    method: "GET",
    path: "/events/listen",
    operationId: "listenForEvents",
    summary: "Long-poll the project's events, each signed as a webhook delivery (what `svc listen` forwards)",
    description:
      "Answers as soon as events newer than `after` exist, or after `wait` seconds with none. Only events a webhook would receive are streamed, each with the exact body and signature headers a delivery would carry, signed with the project's webhook secret(s). Without `after` the answer is a cursor only (start from now). The newest second is held back so events committed out of order are not skipped.",
    tag: "Webhooks",
    scope: "projects:read",
    query: EventListenQuery,
    response: EventBatch,
    handler: ({ ctx, query, request }) => listenForEvents(ctx, query, request.signal),
  }),
];
