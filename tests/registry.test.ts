import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isByteRoute, type ByteRoute } from "@/lib/api/endpoint";
import { apiRoutes, jsonRoutes } from "@/lib/api/registry";
import { defineRoute } from "@/lib/api/route";
import { createRouter } from "@/lib/api/router";
import { accountRoutes, dashboardOnlyRoutes, dashboardProjectRoutes } from "@/lib/dashboard/routes";

const op = (operationId: string, method: "GET" | "POST" = "GET") =>
  defineRoute({
    method,
    path: "/__registry-test",
    operationId,
    summary: operationId,
    tag: "Test",
    scope: null,
    ...(method === "GET" ? {} : { audit: { exempt: "a test operation that writes nothing" } }),
    response: z.object({}),
    handler: async () => ({}),
  });

const bytes = (operationId: string): ByteRoute => ({
  answers: "bytes",
  method: "GET",
  head: true,
  path: "/__registry-test",
  operationId,
  summary: operationId,
  description: operationId,
  tag: "Test",
  auth: "none",
  audit: null,
  scope: null,
  openapi: { responses: {} },
  run: async () => new Response(null),
});

const labels = (table: readonly { method: string; path: string }[]) => table.map((r) => `${r.method} ${r.path}`);

describe("routing tables", () => {
  it("two operations on one method and path are refused when the router is made", () => {
    expect(() => createRouter([op("first"), op("second")], "/test")).toThrow(/Two operations on GET \/__registry-test: first and second/);
    expect(() => createRouter([op("first"), op("other", "POST")], "/test")).not.toThrow();
  });

  it("a byte route that answers HEAD claims HEAD too", () => {
    const head = defineRoute({
      method: "GET",
      path: "/__registry-test",
      operationId: "plain",
      summary: "s",
      tag: "Test",
      scope: null,
      response: z.object({}),
      handler: async () => ({}),
    });
    expect(() => createRouter([bytes("download"), head], "/test")).toThrow(/Two operations on GET/);
  });

  it("the API table is one static list: every method and path once, every operationId once", () => {
    expect(new Set(labels(apiRoutes)).size).toBe(apiRoutes.length);
    const ids = apiRoutes.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(labels(apiRoutes)).toEqual(expect.arrayContaining(["GET /openapi.json", "GET /projects", "POST /messages", "GET /media/{id}/content"]));
    expect(apiRoutes.filter(isByteRoute).map((r) => r.operationId)).toContain("downloadMedia");
    expect(jsonRoutes.map((r) => r.operationId)).not.toContain("downloadMedia");
  });

  it("the dashboard's tables: every JSON operation (but those about the calling key) and its own per project, its account calls outside", () => {
    expect(dashboardProjectRoutes).toEqual([...jsonRoutes.filter((r) => r.operationId !== "getIdentity"), ...dashboardOnlyRoutes]);
    expect(jsonRoutes.filter((r) => !r.servedToOperators).map((r) => r.operationId)).toEqual(["getIdentity"]);
    expect(new Set(labels(dashboardProjectRoutes)).size).toBe(dashboardProjectRoutes.length);
    expect(labels(accountRoutes).sort()).toEqual([
      "GET /cli/device-codes/{user_code}",
      "GET /invitations/{token}",
      "GET /me",
      "GET /setup",
      "POST /cli/device-codes/{user_code}/approve",
      "POST /cli/device-codes/{user_code}/deny",
      "POST /invitations/{token}/accept",
      "POST /setup",
    ]);
    expect(labels(dashboardOnlyRoutes).sort()).toEqual([
      "DELETE /invitations/{id}",
      "DELETE /members/{id}",
      "GET /flows/{id}/channels",
      "GET /function-stats",
      "GET /invitations",
      "GET /keys",
      "GET /mcp-tools",
      "GET /members",
      "GET /sandbox/flows/{id}",
      "GET /sandbox/inbox",
      "GET /sandbox/testers",
      "GET /webhook-deliveries/stats",
      "PATCH /members/{id}",
      "POST /conversations/{id}/read",
      "POST /flows/{id}/channels",
      "POST /keys",
      "POST /keys/{id}/revoke",
      "POST /members",
      "POST /sandbox/customer-messages",
      "POST /sandbox/flows/{id}/complete",
      "POST /sandbox/flows/{id}/exchange",
    ]);
    expect(dashboardOnlyRoutes.every((r) => r.auth === "session")).toBe(true);
    const ids = [...dashboardProjectRoutes, ...accountRoutes].map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
