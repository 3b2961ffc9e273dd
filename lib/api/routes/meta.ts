import { defineRoute } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { Identity, PublicApiLimits } from "@/lib/api/schemas/identity";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { registeredRoutes } from "@/lib/api/registry";
import { describeIdentity, describeLimits } from "@/lib/domain/keys/describe";

const tag = "Meta";

export const metaRoutes = [
  defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This API's OpenAPI 3.1 description",
    description: "Public: needs no API key.",
    tag,
    auth: "none",
    scope: null,
    response: z.record(z.string(), z.unknown()),
    handler: async () => buildOpenApiDocument(registeredRoutes()) as Record<string, unknown>,
  }),
  defineRoute({
    method: "GET",
    path: "/identity",
    operationId: "getIdentity",
    summary: "Who this API key is: organization, project, key, scopes and plan",
    tag,
    scope: null,
    response: Identity,
    handler: async ({ ctx }) => describeIdentity(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/limits",
    operationId: "getLimits",
    summary: "This key's rate limit and monthly quota",
    tag,
    scope: "limits:read",
    response: PublicApiLimits,
    handler: async ({ ctx }) => describeLimits(ctx),
  }),
];
