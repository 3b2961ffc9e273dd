import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { deliveryStats } from "@/lib/domain/webhooks/stats";

export const webhookStatsRoutes = [
  defineRoute({
    method: "GET",
    path: "/webhook-deliveries/stats",
    operationId: "dashboardWebhookStats",
    summary: "Delivery attempts per hour, succeeded and failed",
    tag: "Dashboard: webhooks",
    auth: "session",
    scope: "projects:read",
    query: z.object({
      hours: z.coerce
        .number()
        .int()
        .min(1)
        .max(24 * 14)
        .default(24),
    }),
    response: z.object({
      object: z.literal("webhook_delivery_stats"),
      hours: z.number(),
      buckets: z.array(z.object({ start: z.string(), succeeded: z.number(), failed: z.number(), median_latency_ms: z.number().nullable() })),
      totals: z.object({ succeeded: z.number(), failed: z.number(), success_rate: z.number().nullable() }),
    }),
    handler: ({ ctx, query }) => deliveryStats(ctx, query.hours),
  }),
];
