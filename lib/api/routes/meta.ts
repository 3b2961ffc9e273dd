import { defineRoute, type Route } from "@/lib/api/route";
import { z } from "@/lib/api/zod";
import { Identity, PublicApiLimits } from "@/lib/api/schemas/identity";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import type { Endpoint } from "@/lib/api/endpoint";
import { describeIdentity, describeLimits } from "@/lib/domain/keys/describe";

const tag = "Meta";

/**
 * The document describes the table it is served from. That table (lib/api/registry.ts) is built from
 * this file, so it is handed in rather than imported.
 */
export function openApiDocumentRoute(table: () => readonly Endpoint[]): Route {
  return defineRoute({
    method: "GET",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This API's OpenAPI 3.1 description",
    description: "Public: needs no API key.",
    tag,
    auth: "none",
    scope: null,
    response: z.record(z.string(), z.unknown()),
    handler: async () => buildOpenApiDocument(table()) as Record<string, unknown>,
  });
}

export const metaRoutes = [
  defineRoute({
    method: "GET",
    path: "/identity",
    operationId: "getIdentity",
    summary: "Who this API key is: organization, project, key, scopes and plan",
    tag,
    scope: null,
    // It describes the calling key; an operator in the dashboard has none.
    servedToOperators: false,
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
