import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { functionStats } from "@/lib/domain/functions/invocations";

export const functionStatsRoutes = [
  defineRoute({
    method: "GET",
    path: "/function-stats",
    operationId: "dashboardFunctionStats",
    summary: "Runs and failed runs of the last 24 hours per hosted function (the list's error rate)",
    tag: "Dashboard: functions",
    auth: "session",
    scope: "functions:read",
    response: z.object({
      object: z.literal("list"),
      data: z.array(z.object({ function_id: z.string(), invocations_24h: z.number(), errors_24h: z.number(), last_invoked_at: z.string().nullable() })),
      has_more: z.literal(false),
    }),
    handler: ({ ctx }) => functionStats(ctx),
  }),
];
