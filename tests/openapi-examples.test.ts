import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { OPENAPI_EXAMPLES, type Example } from "@/lib/api/openapi-examples";
import { apiRoutes, jsonRoutes } from "@/lib/api/registry";
import { ErrorBody } from "@/lib/api/schemas/common";
import { ERROR_STATUS } from "@/lib/api/error-status";
import type { ErrorCode } from "@/lib/errors";

// The JSON operations: the byte-serving media download has no examples, its body is a file.
const routes = jsonRoutes;
const doc = buildOpenApiDocument(apiRoutes) as { paths: Record<string, Record<string, any>> };
const operationOf = (route: (typeof routes)[number]) => doc.paths[route.path]![route.method.toLowerCase()];
const byOperation = routes.map((route) => [route.operationId, route] as const);

function issuesOf(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error!.issues;
}

describe("every registered operation in the OpenAPI document", () => {
  it.each(byOperation)("%s has a summary and a description naming its scope", (_id, route) => {
    const op = operationOf(route);
    expect(op.summary?.trim().length).toBeGreaterThan(0);
    const scopeNote = route.auth === "none" ? "No API key needed." : route.scope ? `Requires scope \`${route.scope}\`.` : "Any valid API key.";
    expect(op.description).toContain(scopeNote);
  });

  it.each(byOperation)("%s has response examples (and request examples when it takes a body) that its schemas accept", (operationId, route) => {
    const examples = OPENAPI_EXAMPLES[operationId];
    expect(examples, `lib/api/openapi-examples has no entry for ${operationId}`).toBeDefined();
    const responses = Object.entries(examples!.response);
    expect(responses.length).toBeGreaterThan(0);
    for (const [name, example] of responses) {
      expect(example.summary.length, name).toBeGreaterThan(0);
      expect(issuesOf(route.response, example.value), `${operationId} response example ${name}`).toEqual([]);
    }
    if (route.body) {
      const requests = Object.entries(examples!.request ?? {});
      expect(requests.length, `${operationId} takes a body: give a request example`).toBeGreaterThan(0);
      for (const [name, example] of requests) {
        expect(issuesOf(route.body, example.value), `${operationId} request example ${name}`).toEqual([]);
      }
    } else {
      expect(examples!.request, `${operationId} takes no body`).toBeUndefined();
    }
  });

  it.each(byOperation)("%s carries its examples in the document, and every error example is an Error of its status", (operationId, route) => {
    const op = operationOf(route);
    const examples = OPENAPI_EXAMPLES[operationId]!;
    expect(op.responses["200"].content["application/json"].examples).toEqual(examples.response);
    if (route.body) expect(op.requestBody.content["application/json"].examples).toEqual(examples.request);
    for (const status of Object.keys(examples.errors ?? {})) expect(Object.keys(op.responses)).toContain(status);
    for (const [status, response] of Object.entries<any>(op.responses)) {
      if (status === "200") continue;
      const named = Object.entries<Example>(response.content["application/json"].examples ?? {});
      expect(named.length, `${operationId} ${status} has no example`).toBeGreaterThan(0);
      for (const [name, example] of named) {
        expect(issuesOf(ErrorBody, example.value), `${operationId} ${status} ${name}`).toEqual([]);
        const code = (example.value as { error: ErrorCode }).error;
        expect(ERROR_STATUS[code], `${operationId} ${status} ${name}: ${code}`).toBe(Number(status));
      }
    }
  });

  it("has no stale examples: each names a registered operation", () => {
    const registered = new Set(routes.map((r) => r.operationId));
    const stale = Object.keys(OPENAPI_EXAMPLES).filter((id) => !registered.has(id));
    expect(stale).toEqual([]);
  });

  it("the 403 example names the operation's own scope", () => {
    for (const route of routes.filter((r) => r.scope)) {
      const example = operationOf(route).responses["403"].content["application/json"].examples.insufficientScope.value;
      expect(example).toMatchObject({ error: "insufficient_scope", required_scope: route.scope });
    }
  });
});

describe("examples of operations not registered yet", () => {
  // They are parsed with the response schema they will have, so they are valid the day the route lands.
  it("deleteChannel answers the Channel, disconnected", async () => {
    const { Channel } = await import("@/lib/api/schemas/channels");
    for (const example of Object.values(OPENAPI_EXAMPLES.deleteChannel!.response)) {
      expect(issuesOf(Channel, example.value)).toEqual([]);
      expect(example.value).toMatchObject({ status: "disconnected" });
    }
  });
});
