import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { clientIp } from "@/lib/api/client-ip";
import { servicesOf } from "@/lib/server/runtime";
import { systemCtx } from "@/lib/domain/context";
import { approveDeviceCode, denyDeviceCode, describeDeviceCode } from "@/lib/domain/cli-login";
import { requireUser } from "../session";

const UserCodeParam = z.object({ user_code: z.string().max(20) });

const DeviceCode = z.object({
  object: z.literal("cli_device_code"),
  user_code: z.string(),
  client_host: z.string(),
  request_ip: z.string().nullable(),
  status: z.enum(["pending", "approved", "denied", "claimed", "expired"]),
  project_id: z.string().nullable(),
  scopes: z.array(z.string()).nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});

const ApprovedDeviceCode = DeviceCode.extend({ key_id: z.string(), key_display: z.string() });

/** The wire shapes, for the confirmation page's client (lib/client/cli-login.ts) to import as types only. */
export type CliDeviceCodeWire = z.infer<typeof DeviceCode>;
export type CliApprovedDeviceCodeWire = z.infer<typeof ApprovedDeviceCode>;

const tag = "Dashboard: CLI login";

/**
 * The confirmation page's calls (/cli/confirm): outside any project, so they sit with the account
 * routes (auth "none" + the session read in the handler, like /me). Approving checks the operator's
 * role in the chosen project itself (keys:write), since no project principal exists yet.
 */
export const cliLoginRoutes = [
  defineRoute({
    method: "GET",
    path: "/cli/device-codes/{user_code}",
    operationId: "dashboardDescribeCliCode",
    summary: "A CLI login code: the host that asked, its state and expiry",
    tag,
    auth: "none",
    scope: null,
    params: UserCodeParam,
    response: DeviceCode,
    handler: async ({ runtime, request, params }) => {
      return describeDeviceCode(systemCtx(servicesOf(runtime)), { userId: await requireUser(request), userCode: params.user_code });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/cli/device-codes/{user_code}/approve",
    operationId: "dashboardApproveCliCode",
    summary: "Approve a CLI login: creates the key in the chosen project with the chosen scopes",
    tag,
    auth: "none",
    scope: null,
    audit: ["api_key.created"],
    idempotency: "off",
    params: UserCodeParam,
    body: z.object({ project_id: z.string().min(1).max(100), scopes: z.array(z.string().max(100)).min(1, "Pick at least one scope.").max(64) }).strict(),
    response: ApprovedDeviceCode,
    handler: async ({ runtime, request, params, body }) =>
      approveDeviceCode(systemCtx(servicesOf(runtime)), {
        userId: await requireUser(request),
        userCode: params.user_code,
        projectId: body.project_id,
        scopes: body.scopes,
        ip: clientIp(request, runtime.settings.trustedProxies),
      }),
  }),
  defineRoute({
    method: "POST",
    path: "/cli/device-codes/{user_code}/deny",
    operationId: "dashboardDenyCliCode",
    summary: "Deny a CLI login: the CLI stops with access_denied",
    tag,
    auth: "none",
    scope: null,
    audit: { exempt: "refuses a login code: nothing is created" },
    idempotency: "off",
    params: UserCodeParam,
    response: DeviceCode,
    handler: async ({ runtime, request, params }) =>
      denyDeviceCode(systemCtx(servicesOf(runtime)), { userId: await requireUser(request), userCode: params.user_code }),
  }),
];
