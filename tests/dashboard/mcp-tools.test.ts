import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { expectError } from "../support/wire";
import { deployed } from "../functions/support";
import { addOperator, dash, type Operator } from "./support";

/**
 * GET /api/dashboard/projects/{id}/mcp-tools (lib/dashboard/routes/mcp-tools.ts): the MCP tools a key
 * of the project may use, for the API keys page. The list must be what POST /api/v1/mcp's tools/list
 * answers for that key, so every case here also asks the real MCP endpoint.
 */

let app: TestApp;
let acme: Seeded;
let dev: Operator;
let base: string;

beforeAll(async () => {
  app = await createTestApp();
  acme = await app.seed({ orgName: "MCP Tools Co" });
  dev = await addOperator(app, acme, "developer");
  base = `/projects/${acme.projectId}`;
});
afterAll(() => app?.close());

/** A secret key made as the keys page makes it: its id for the dashboard, its value for /api/v1. */
async function createKey(scopes: string[], name = `key ${scopes.join(" ")}`): Promise<{ id: string; value: string }> {
  const created = await dash(app, "POST", `${base}/keys`, { as: dev, body: { name, scopes } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { id: created.body.id, value: created.body.value };
}

const toolsOf = (keyId: string, as: Operator = dev) => dash(app, "GET", `${base}/mcp-tools?key_id=${encodeURIComponent(keyId)}`, { as });
const namesOf = (body: { data: { name: string }[] }) => body.data.map((tool) => tool.name);

/** The tool names the MCP server itself lists for this key (tools/list, as any MCP client asks). */
async function mcpToolNames(key: string): Promise<string[]> {
  const answer = await app.call("POST", "/mcp", {
    key,
    headers: { accept: "application/json, text/event-stream" },
    body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.result.tools.map((tool: { name: string }) => tool.name);
}

describe("GET /mcp-tools (dashboard)", () => {
  it("lists the tools a key's scopes allow, each with its title, read-only flag and scope, as tools/list does", async () => {
    const sender = await createKey(["messages:send", "conversations:read"]);
    const listed = await toolsOf(sender.id);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: "list", has_more: false });
    expect(namesOf(listed.body)).toEqual([
      "send_message",
      "get_message",
      "list_conversations",
      "get_conversation",
      "list_conversation_messages",
      "count_conversations",
      "assign_conversation",
      "list_conversation_notes",
      "add_conversation_note",
      "list_saved_replies",
      "render_saved_reply",
    ]);
    expect(listed.body.data.find((tool: { name: string }) => tool.name === "send_message")).toEqual({
      name: "send_message",
      title: expect.any(String),
      description: expect.stringContaining("needs scope messages:send"),
      read_only: false,
      scope: "messages:send",
    });
    expect(listed.body.data.find((tool: { name: string }) => tool.name === "list_conversations")).toMatchObject({
      read_only: true,
      scope: "conversations:read",
    });
    expect(namesOf(listed.body)).toEqual(await mcpToolNames(sender.value));
  });

  it("a key with contacts:read only gets the contact tools: no send_message", async () => {
    const reader = await createKey(["contacts:read"]);
    const listed = await toolsOf(reader.id);
    expect(listed.status).toBe(200);
    expect(namesOf(listed.body)).toEqual(["list_contacts", "get_contact"]);
    expect(listed.body.data.every((tool: { read_only: boolean; scope: string }) => tool.read_only && tool.scope === "contacts:read")).toBe(true);
    expect(namesOf(listed.body)).toEqual(await mcpToolNames(reader.value));
  });

  it("a key whose scopes grant no tool gets an empty list", async () => {
    const limits = await createKey(["limits:read"]);
    const listed = await toolsOf(limits.id);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ object: "list", data: [], has_more: false });
    expect(await mcpToolNames(limits.value)).toEqual([]);
  });

  it("an exposed, deployed function is listed as fn_<slug> for a functions:invoke key only", async () => {
    const fn = await deployed(app, acme.key, "lookup-order", "export default async function (event) { return { id: event.arguments.id }; }");
    const patched = await app.call("PATCH", `/functions/${fn.id}`, {
      key: acme.key,
      body: { expose_as_mcp_tool: true, input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const invoker = await createKey(["functions:invoke"]);
    const listed = await toolsOf(invoker.id);
    expect(listed.status).toBe(200);
    expect(namesOf(listed.body)).toEqual(["invoke_function", "fn_lookup_order"]);
    expect(listed.body.data[1]).toMatchObject({ name: "fn_lookup_order", title: "Function lookup-order", read_only: false, scope: "functions:invoke" });
    expect(namesOf(listed.body)).toEqual(await mcpToolNames(invoker.value));

    const reader = await createKey(["contacts:read"]);
    expect(namesOf((await toolsOf(reader.id)).body)).not.toContain("fn_lookup_order");
  });

  it("takes scopes instead of a key (comma-separated), and refuses unknown scopes or neither parameter", async () => {
    const listed = await dash(app, "GET", `${base}/mcp-tools?scopes=contacts:read,flows:send`, { as: dev });
    expect(listed.status).toBe(200);
    expect(namesOf(listed.body)).toEqual(["list_contacts", "get_contact", "send_flow"]);

    const unknown = await dash(app, "GET", `${base}/mcp-tools?scopes=contacts:raed`, { as: dev });
    expectError(unknown, 400, "invalid_request");
    expect(unknown.body.issues.scopes).toBeDefined();
    const neither = await dash(app, "GET", `${base}/mcp-tools`, { as: dev });
    expectError(neither, 400, "invalid_request");
    expect(neither.body.issues.key_id).toBeDefined();
    const both = await dash(app, "GET", `${base}/mcp-tools?key_id=${acme.keyId}&scopes=contacts:read`, { as: dev });
    expectError(both, 400, "invalid_request");
  });

  it("another project's key, or no such key, is a 404 in the API's error shape", async () => {
    const other = await app.addProject(acme, "Elsewhere");
    const otherIdentity = await app.call("GET", "/identity", { key: other.key });
    const otherKeyId = otherIdentity.body.api_key.id as string;
    expect(otherKeyId).toMatch(/^key_/);
    expectError(await toolsOf(otherKeyId), 404, "not_found");
    // The same key asked for through its own project is found: the 404 is about the project, not the id.
    expect((await dash(app, "GET", `/projects/${other.projectId}/mcp-tools?key_id=${otherKeyId}`, { as: dev })).status).toBe(200);
    expectError(await toolsOf("key_doesnotexist"), 404, "not_found");
  });

  it("a revoked or publishable key is refused with what to pick instead: the MCP server would not admit it", async () => {
    const gone = await createKey(["messages:send"]);
    expect((await dash(app, "POST", `${base}/keys/${gone.id}/revoke`, { as: dev })).status).toBe(200);
    const revoked = await toolsOf(gone.id);
    expectError(revoked, 400, "invalid_request");
    expect(revoked.body.message).toMatch(/revoked.*active secret key/);

    const web = await dash(app, "POST", `${base}/keys`, { as: dev, body: { kind: "publishable", name: "Web", allowed_origins: ["https://shop.example.com"] } });
    const publishable = await toolsOf(web.body.id);
    expectError(publishable, 400, "invalid_request");
    expect(publishable.body.message).toMatch(/publishable key cannot call the MCP server/);
  });

  it("a viewer, who can see the keys page (keys:read), sees the tools too; no session is a 401", async () => {
    const viewer = await addOperator(app, acme, "viewer");
    const sender = await createKey(["messages:send"]);
    const listed = await toolsOf(sender.id, viewer);
    expect(listed.status).toBe(200);
    expect(namesOf(listed.body)).toEqual(["send_message", "assign_conversation", "add_conversation_note"]);
    expectError(await dash(app, "GET", `${base}/mcp-tools?key_id=${sender.id}`), 401, "unauthenticated");
  });
});
