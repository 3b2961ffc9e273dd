import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import { DeliveryListQuery, ReplayRequest, ReplayResponse, WebhookDelivery, WebhookDeliveryDetail } from "@/lib/api/schemas/webhooks";
import { getDelivery, listDeliveries, redeliver, replay } from "@/lib/domain/webhooks";

const tag = "Webhooks";

export const webhookRoutes = [
  defineRoute({
    method: "GET",
    path: "/webhook-deliveries",
    operationId: "listWebhookDeliveries",
    summary: "Webhook deliveries, newest first (filter by event type, status, since)",
    tag,
    scope: "projects:read",
    query: DeliveryListQuery,
    response: listOf(WebhookDelivery, "WebhookDeliveryList"),
    handler: async ({ ctx, query }) => ({ object: "list" as const, ...(await listDeliveries(ctx, query, query)) }),
  }),
  defineRoute({
    method: "GET",
    path: "/webhook-deliveries/{id}",
    operationId: "getWebhookDelivery",
    summary: "A delivery with every attempt and its event",
    tag,
    scope: "projects:read",
    params: IdParam,
    response: WebhookDeliveryDetail,
    handler: ({ ctx, params }) => getDelivery(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/webhook-deliveries/{id}/redeliver",
    operationId: "redeliverWebhook",
    summary: "Send a delivery's event again (same event id)",
    tag,
    scope: "projects:write",
    audit: { exempt: "sends a delivery again to the project's own webhook: traffic, changes no configuration" },
    params: IdParam,
    response: WebhookDeliveryDetail,
    handler: ({ ctx, params }) => redeliver(ctx, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/webhook-deliveries/replay",
    operationId: "replayWebhooks",
    summary: "Re-send every matching event once",
    tag,
    scope: "projects:write",
    audit: { exempt: "sends deliveries again to the project's own webhook: traffic, changes no configuration" },
    body: ReplayRequest,
    response: ReplayResponse,
    handler: ({ ctx, body }) => replay(ctx, body),
  }),
];
