import { newId } from "@/lib/ids";
import { SvcError } from "@/lib/errors";
import type { ByteRoute } from "@/lib/api/endpoint";
import { admit } from "@/lib/api/admission";
import { errorResponse, handlerHeaders } from "@/lib/api/respond";
import { isDraining } from "@/lib/server/shutdown-state";
import { openInboxStream } from "../inbox-stream";

const UNAVAILABLE_MESSAGE =
  "Live inbox updates are unavailable right now. The inbox refreshes every 5 seconds meanwhile; open the stream again after Retry-After seconds.";

/**
 * GET /api/dashboard/projects/{projectId}/inbox/stream (README "Inbox: live updates"): the project's
 * inbox events as Server-Sent Events, for a signed-in operator who can read its conversations. The
 * dispatcher has already resolved the operator's access to the project (another organization's project
 * is a 404 there); this admits them with conversations:read like any operation. A byte route: the
 * answer is a stream, not a JSON result. Served to operators only, so it is in no API key's surface
 * and not in the OpenAPI document.
 */
export const inboxStreamRoute: ByteRoute = {
  answers: "bytes",
  method: "GET",
  head: false,
  path: "/inbox/stream",
  operationId: "dashboardInboxStream",
  summary: "The project's inbox events, live (Server-Sent Events)",
  description:
    "Each event is `event: inbox` with `data: {type, conversation_id, id?}`, type one of message.created, message.updated, conversation.updated, note.created; a `: ping` comment every 15 s.",
  tag: "Dashboard: inbox",
  auth: "session",
  scope: null,
  audit: null,
  openapi: { responses: { 200: { description: "A text/event-stream of inbox events." } } },
  async run(request, _params, runtime, operator) {
    const requestId = newId("request");
    const headers = handlerHeaders(requestId);
    try {
      await admit("conversations:read", "session", { request, pathParams: {}, runtime, operator, now: runtime.ports.clock.now(), headers });
      // A stream opened now would end at once: the browser is better served by another process.
      if (isDraining()) throw unavailable();
      const body = await openInboxStream({
        bus: runtime.ports.bus,
        metrics: runtime.ports.metrics,
        projectId: operator!.project.id,
        request,
      }).catch((error: unknown) => {
        console.error("[inbox-stream] could not follow the project's events:", error);
        throw unavailable();
      });
      return new Response(body, {
        status: 200,
        headers: {
          ...headers,
          "Content-Type": "text/event-stream; charset=utf-8",
          // no-transform: Next's compression (and any proxy's) leaves the stream alone instead of buffering it.
          "Cache-Control": "no-cache, no-transform",
          // nginx and its kin pass each event on at once.
          "X-Accel-Buffering": "no",
        },
      });
    } catch (error) {
      return errorResponse(error, requestId, headers);
    }
  },
};

function unavailable(): SvcError {
  return new SvcError("live_updates_unavailable", UNAVAILABLE_MESSAGE, { retryable: true, retry_after: 5 }, { "Retry-After": "5" });
}
