import { describe, expect, it } from "vitest";
import { z } from "zod";
import { registerRoutes, registeredRoutes } from "@/lib/api/registry";
import { defineRoute } from "@/lib/api/route";

const op = (operationId: string, summary: string) =>
  defineRoute({ method: "GET", path: "/__registry-test", operationId, summary, tag: "Test", scope: null, response: z.object({}), handler: async () => ({}) });

describe("route registry", () => {
  it("re-registering the same operation (a dev-server module reload) replaces it instead of failing", () => {
    registerRoutes(op("registryTest", "first"));
    registerRoutes(op("registryTest", "second"));
    const matches = registeredRoutes().filter((r) => r.path === "/__registry-test");
    expect(matches).toHaveLength(1);
    expect(matches[0]!.summary).toBe("second");
  });

  it("a different operation on the same method and path is a programming error", () => {
    expect(() => registerRoutes(op("somethingElse", "clash"))).toThrow(/Two operations on GET \/__registry-test/);
  });
});
