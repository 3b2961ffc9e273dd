import { defineRoute } from "@/lib/api/route";
import { IdParam } from "@/lib/api/schemas/common";
import { z } from "@/lib/api/zod";
import { createKey, listKeys, revokeKey } from "@/lib/domain/keys/manage";

const ApiKey = z.object({
  object: z.literal("api_key"),
  id: z.string(),
  kind: z.enum(["secret", "publishable"]),
  name: z.string().nullable(),
  prefix: z.string(),
  display: z.string(),
  scopes: z.array(z.string()),
  allowed_origins: z.array(z.string()),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  created_by_user_id: z.string().nullable(),
});

const KeyCreate = z
  .object({
    kind: z.enum(["secret", "publishable"]).default("secret"),
    name: z.string().trim().min(1, "Give the key a name.").max(100),
    scopes: z.array(z.string()).max(64).optional(),
    allowed_origins: z.array(z.string().max(300)).max(50).optional(),
  })
  .strict();

const tag = "Dashboard: API keys";

export const keyRoutes = [
  defineRoute({
    method: "GET",
    path: "/keys",
    operationId: "dashboardListKeys",
    summary: "The project's API keys, newest first (never their values)",
    tag,
    auth: "session",
    scope: "keys:read",
    response: z.object({ object: z.literal("list"), data: z.array(ApiKey), has_more: z.boolean() }),
    handler: ({ ctx }) => listKeys(ctx),
  }),
  defineRoute({
    method: "POST",
    path: "/keys",
    operationId: "dashboardCreateKey",
    summary: "Create a key; its value is in this response only",
    tag,
    auth: "session",
    scope: "keys:write",
    audit: ["api_key.created"],
    // A replayed create would hand the secret out a second time: never stored for replay.
    idempotency: "off",
    body: KeyCreate,
    response: ApiKey.extend({ value: z.string() }),
    handler: ({ ctx, body }) => createKey(ctx, body),
  }),
  defineRoute({
    method: "POST",
    path: "/keys/{id}/revoke",
    operationId: "dashboardRevokeKey",
    summary: "Revoke a key at once",
    tag,
    auth: "session",
    scope: "keys:write",
    audit: ["api_key.revoked"],
    idempotency: "off",
    params: IdParam,
    response: ApiKey,
    handler: ({ ctx, params }) => revokeKey(ctx, params.id),
  }),
];
