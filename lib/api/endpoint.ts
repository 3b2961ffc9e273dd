import type { RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Runtime } from "@/lib/server/runtime";
import type { Route } from "./route";
import type { AuditDeclaration } from "./audit-declaration";
import type { OperatorPrincipal } from "./principal";

/**
 * An operation that writes its own answer rather than a defineRoute JSON result: the signed media
 * download (bytes) and the MCP server (JSON-RPC over Streamable HTTP, lib/api/mcp). It is a handler
 * like a defineRoute operation (Svc-Version and Request-Id on every answer, JSON error bodies), so it
 * describes itself to OpenAPI by hand.
 */
export interface ByteRoute {
  answers: "bytes";
  method: "GET" | "POST";
  /** Also serves HEAD on the same path (the handler answers it: headers without a body). */
  head: boolean;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /**
   * "none": no API key is read (a signed URL is the authorization); "secret": the handler admits the
   * Bearer key itself; "session": a dashboard-only stream (lib/dashboard/routes/inbox-stream.ts), given the operator.
   */
  auth: "none" | "secret" | "session";
  scope: null;
  /** As a defineRoute operation's (lib/api/audit-declaration.ts): null for a GET, else actions or an exemption. */
  audit: AuditDeclaration | null;
  /** Its OpenAPI request and responses: a byte body has no zod response schema to generate them from. */
  openapi: Pick<RouteConfig, "request" | "responses">;
  /** `operator`: the signed-in operator when the dashboard serves it (auth "session"). */
  run(request: Request, pathParams: Record<string, string>, runtime: Runtime, operator?: OperatorPrincipal): Promise<Response>;
}

/** What a routing table holds: a JSON operation (lib/api/route.ts defineRoute) or a byte route. */
export type Endpoint = Route | ByteRoute;

export function isByteRoute(endpoint: Endpoint): endpoint is ByteRoute {
  return "answers" in endpoint && endpoint.answers === "bytes";
}
