import { z } from "@/lib/api/zod";

export const Identity = z
  .object({
    object: z.literal("identity"),
    organization: z.object({ id: z.string(), name: z.string().nullable() }),
    project: z.object({ id: z.string(), name: z.string().nullable() }),
    api_key: z.object({
      id: z.string(),
      name: z.string().nullable(),
      prefix: z.string().nullable(),
      display: z.string().nullable(),
      scopes: z.array(z.string()),
    }),
    plan: z.string().nullable(),
    api_version: z.string(),
  })
  .openapi("Identity");

export const PublicApiLimits = z
  .object({
    object: z.literal("public_api_limits"),
    rate_limit: z.object({ requests: z.number().int(), window_seconds: z.number().int(), scope: z.literal("api_key") }),
    monthly_quota: z.object({
      requests: z.number().int(),
      scope: z.literal("api_key"),
      period: z.string().openapi({ description: "Calendar month the quota counts in (UTC).", example: "2026-06" }),
    }),
  })
  .openapi("PublicApiLimits");
