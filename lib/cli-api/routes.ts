import { defineRoute, type Route } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { clientIp } from "@/lib/api/client-ip";
import { createRouter } from "@/lib/api/router";
import { errorResponse, handlerHeaders } from "@/lib/api/respond";
import { newId } from "@/lib/ids";
import { servicesOf, getRuntime, type Runtime } from "@/lib/server/runtime";
import { systemCtx } from "@/lib/domain/context";
import { logoutKey, pollDeviceToken, startDeviceCode } from "@/lib/domain/cli-login";

const tag = "CLI login";

const DeviceCode = z.object({
  object: z.literal("cli_device_code"),
  device_code: z.string(),
  user_code: z.string(),
  verification_url: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});

const Token = z.object({
  object: z.literal("cli_token"),
  api_key: z.string(),
  key_id: z.string(),
  display: z.string().nullable(),
  project_id: z.string().nullable(),
  scopes: z.array(z.string()),
});

/** The parts of apiKeyWire the logout answer needs; the rest passes through unchecked. */
const RevokedKey = z.looseObject({ object: z.literal("api_key"), id: z.string(), display: z.string(), revoked_at: z.string().nullable() });

/**
 * `svc login`'s device-code flow and `svc logout` (docs/spec/decisions.md "Developer tools"), served
 * under /api/cli: not part of the public /api/v1 surface (no OpenAPI entry), but through the same
 * route wrapper, so errors, limits and key checks are the API's. The two device-code calls carry no
 * key (the CLI has none yet); the device code itself is the credential of the poll.
 */
export const cliRoutes: Route[] = [
  defineRoute({
    method: "POST",
    path: "/device-codes",
    operationId: "cliStartDeviceCode",
    summary: "Start a CLI login: a device code for the CLI and a user code for the operator",
    tag,
    auth: "none",
    scope: null,
    audit: { exempt: "asks for a login: nothing is granted until an operator approves it, which is audited (api_key.created)" },
    idempotency: "off",
    body: z.object({ client_host: z.string().max(255).optional() }).strict(),
    response: DeviceCode,
    handler: ({ runtime, request, body }) =>
      startDeviceCode(systemCtx(servicesOf(runtime)), { clientHost: body.client_host, ip: clientIp(request, runtime.settings.trustedProxies) }),
  }),
  defineRoute({
    method: "POST",
    path: "/device-codes/token",
    operationId: "cliPollDeviceToken",
    summary: "Poll for the key: 428 until confirmed, then the key once",
    tag,
    auth: "none",
    scope: null,
    audit: { exempt: "collects the key an approval created and audited" },
    idempotency: "off",
    body: z.object({ device_code: z.string().min(1).max(200) }).strict(),
    response: Token,
    handler: ({ runtime, body }) => pollDeviceToken(systemCtx(servicesOf(runtime)), { deviceCode: body.device_code }),
  }),
  defineRoute({
    method: "POST",
    path: "/logout",
    operationId: "cliLogout",
    summary: "Revoke the calling key (svc logout)",
    tag,
    auth: "secret",
    scope: null,
    audit: ["api_key.revoked"],
    idempotency: "off",
    response: RevokedKey,
    handler: ({ ctx }) => logoutKey(ctx),
  }),
];

const router = createRouter(cliRoutes, "/api/cli");

/** Serves /api/cli/* (`path` is what follows /api/cli). */
export async function handleCli(request: Request, path: string, given?: Runtime): Promise<Response> {
  try {
    return await router(request, path, given ?? (await getRuntime()));
  } catch (error) {
    const requestId = newId("request");
    return errorResponse(error, requestId, handlerHeaders(requestId));
  }
}
