import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Seeded } from "../support/app";
import { startHarness, type Harness } from "../messages/support";

/**
 * JSON-RPC requests whose params do not fit their method answer -32602 (invalid params) with one line
 * naming the field, over a real HTTP server of the app (docs/api-decisions.md "Developer tools").
 */

let h: Harness;
let acme: Seeded;
beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed({ orgName: "MCP Params" });
}, 30_000);
afterAll(async () => {
  await h?.close();
});

async function rpc(method: string, params: unknown) {
  const res = await fetch(`${h.server.url}/api/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${acme.key}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, ...(params === undefined ? {} : { params }) }),
  });
  return { status: res.status, body: (await res.json()) as { id: number; result?: unknown; error?: { code: number; message: string } } };
}

const MALFORMED: [string, string, unknown, RegExp][] = [
  ["arguments a string", "tools/call", { name: "list_contacts", arguments: "limit=5" }, /params\.arguments: expected an object, received string/],
  ["arguments an array", "tools/call", { name: "list_contacts", arguments: [1, 2] }, /params\.arguments/],
  ["arguments a number", "tools/call", { name: "list_contacts", arguments: 5 }, /params\.arguments/],
  ["arguments null", "tools/call", { name: "list_contacts", arguments: null }, /params\.arguments/],
  ["no name", "tools/call", { arguments: {} }, /params\.name/],
  ["a name that is not a string", "tools/call", { name: 42 }, /params\.name/],
  ["no params at all", "tools/call", undefined, /params/],
  ["params an array", "tools/call", ["list_contacts"], /params/],
  ["a cursor that is not a string", "tools/list", { cursor: 3 }, /params\.cursor/],
];

describe("malformed params", () => {
  for (const [what, method, params, field] of MALFORMED) {
    it(`${method} with ${what}: -32602 with one line naming the field`, async () => {
      const res = await rpc(method, params);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(7);
      expect(res.body.error?.code).toBe(-32602);
      expect(res.body.error?.message).toMatch(new RegExp(`^Invalid params for ${method.replace("/", "\\/")}: `));
      expect(res.body.error?.message).toMatch(field);
      expect(res.body.error?.message).not.toContain("\n");
    });
  }

  it("well-formed params still reach the tools", async () => {
    const res = await rpc("tools/call", { name: "list_contacts", arguments: { limit: 1 } });
    expect(res.body.error).toBeUndefined();
    expect(res.body.result).toMatchObject({ structuredContent: { object: "list" } });
  });
});
