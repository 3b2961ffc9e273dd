import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { upsertPlan } from "@/lib/domain/plans";
import type { Seeded } from "../support/app";
import { startHarness, type Harness } from "../messages/support";
import { joinCodeOf, joinTesters, testerNumber } from "../messages/send-support";
import { deployed } from "../functions/support";

/**
 * POST /api/v1/mcp through the official SDK client over a real HTTP server of the app: tools per key
 * scopes, tool calls that reach the same verbs as REST, and the same key, limits and origin checks.
 */

let h: Harness;
let acme: Seeded;
let conversationId: string;
const clients: Client[] = [];

const mcpUrl = () => new URL(`${h.server.url}/api/v1/mcp`);

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "svc-tests", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

/** A raw JSON-RPC POST, for what the SDK client hides (statuses, headers, error bodies). */
function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(mcpUrl(), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}
const toolsList = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
/** The JSON a tool answered (callTool's result type also covers the legacy `toolResult` shape, hence unknown). */
const textOf = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0]!.text);

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed({ orgName: "MCP Co" });
  const tester = testerNumber();
  const joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), [tester]);
  conversationId = joined.conversations[tester]!;
}, 30_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await h?.close();
});

describe("tools per key", () => {
  it("two keys with different scopes list different tools: no send tool without messages:send", async () => {
    const sender = await connect(await h.app.addKey(acme, ["messages:send", "conversations:read"]));
    const reader = await connect(await h.app.addKey(acme, ["conversations:read", "contacts:read"]));
    expect((await names(sender)).sort()).toEqual([
      "add_conversation_note",
      "assign_conversation",
      "count_conversations",
      "get_conversation",
      "get_message",
      "list_conversation_messages",
      "list_conversation_notes",
      "list_conversations",
      "list_saved_replies",
      "render_saved_reply",
      "send_message",
    ]);
    expect((await names(reader)).sort()).toEqual([
      "count_conversations",
      "get_contact",
      "get_conversation",
      "get_message",
      "list_contacts",
      "list_conversation_messages",
      "list_conversation_notes",
      "list_conversations",
      "list_saved_replies",
      "render_saved_reply",
    ]);
    const tools = (await sender.listTools()).tools;
    const send = tools.find((t) => t.name === "send_message")!;
    expect(send.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(send.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["channel_id", "conversation_id", "to", "text", "idempotency_key"]));
    const read = tools.find((t) => t.name === "get_conversation")!;
    expect(read.annotations?.readOnlyHint).toBe(true);
    expect(read.inputSchema).toMatchObject({ type: "object", required: ["id"] });
  });

  it("a tool outside the key's scopes cannot be called either", async () => {
    const reader = await connect(await h.app.addKey(acme, ["conversations:read"]));
    await expect(
      reader.callTool({ name: "send_message", arguments: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "no" } }),
    ).rejects.toThrow(/Unknown tool: send_message/);
  });

  it("an `*` key sees every curated tool", async () => {
    expect((await names(await connect(acme.key))).sort()).toEqual(
      expect.arrayContaining(["send_flow", "invoke_function", "send_message", "list_contacts", "get_contact", "get_message"]),
    );
  });
});

describe("automation tools", () => {
  it("by scope: config:read sees the reads, config:write the writes; create, explain and delete reach the same verbs as REST", async () => {
    const reader = await connect(await h.app.addKey(acme, ["config:read"]));
    expect((await names(reader)).sort()).toEqual([
      "explain_message_automations",
      "get_automation",
      "get_automation_run",
      "list_automation_runs",
      "list_automations",
    ]);
    const writer = await connect(await h.app.addKey(acme, ["config:write"]));
    const tools = (await writer.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(["create_automation", "delete_automation", "update_automation"]);
    const create = tools.find((t) => t.name === "create_automation")!;
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["key", "name", "trigger", "steps", "active", "position", "idempotency_key"]),
    );
    expect(tools.find((t) => t.name === "delete_automation")!.annotations?.destructiveHint).toBe(true);

    const created = await writer.callTool({
      name: "create_automation",
      arguments: { key: "mcp-made", name: "Made over MCP", trigger: { type: "KEYWORD", keywords: ["mcp"] }, steps: [{ send_reply: { text: "hi" } }] },
    });
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const automation = textOf(created);
    expect((await h.app.call("GET", `/automations/${automation.id}`, { key: acme.key })).body).toEqual(automation);
    const refused = await writer.callTool({ name: "update_automation", arguments: { id: automation.id, key: "renamed" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatchObject({ status: 422, error: "config_invalid" });

    const inbound = await h.app.call("GET", `/conversations/${conversationId}/messages?limit=100`, { key: acme.key });
    const customerMessage = (inbound.body.data as { id: string; direction: string }[]).find((m) => m.direction === "inbound")!;
    const explained = textOf(await reader.callTool({ name: "explain_message_automations", arguments: { id: customerMessage.id } }));
    expect(explained).toEqual((await h.app.call("GET", `/messages/${customerMessage.id}/automations`, { key: acme.key })).body);

    expect(textOf(await writer.callTool({ name: "delete_automation", arguments: { id: automation.id } }))).toEqual({
      object: "automation",
      id: automation.id,
      deleted: true,
    });
  });
});

describe("calling tools", () => {
  it("send_message sends through the sandbox: the message exists over REST", async () => {
    const client = await connect(await h.app.addKey(acme, ["messages:send"]));
    const result = await client.callTool({
      name: "send_message",
      arguments: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "Sent by an agent over MCP" },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const sent = textOf(result);
    expect(sent).toMatchObject({ object: "message", status: "queued", conversation_id: conversationId });
    expect(result.structuredContent).toMatchObject({ id: sent.id });
    const rest = await h.app.call("GET", `/messages/${sent.id}`, { key: acme.key });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id: sent.id, conversation_id: conversationId, direction: "outbound" });
    expect(JSON.stringify(rest.body)).toContain("Sent by an agent over MCP");
  });

  it("read tools answer what REST answers", async () => {
    const client = await connect(await h.app.addKey(acme, ["conversations:read"]));
    const one = await client.callTool({ name: "get_conversation", arguments: { id: conversationId } });
    expect(textOf(one)).toEqual((await h.app.call("GET", `/conversations/${conversationId}`, { key: acme.key })).body);
    const list = textOf(await client.callTool({ name: "list_conversations", arguments: { limit: 5 } }));
    expect(list.data.map((c: { id: string }) => c.id)).toContain(conversationId);
  });

  it("bad arguments and unknown ids are tool results with isError and the API's error body", async () => {
    const client = await connect(await h.app.addKey(acme, ["conversations:read", "messages:send"]));
    const missing = await client.callTool({ name: "get_conversation", arguments: { id: "conv_doesnotexist" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatchObject({ status: 404, error: "not_found" });
    const invalid = await client.callTool({ name: "send_message", arguments: { channel_id: SANDBOX_CHANNEL_ID } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatchObject({ status: 400, error: "invalid_request" });
  });

  it("another project's ids are not visible through tools", async () => {
    const other = await h.app.addProject(acme, "Other");
    const client = await connect(other.key);
    const foreign = await client.callTool({ name: "get_conversation", arguments: { id: conversationId } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatchObject({ status: 404, error: "not_found" });
    const list = textOf(await client.callTool({ name: "list_conversations", arguments: {} }));
    expect(list.data).toEqual([]);
  });
});

describe("functions exposed as tools", () => {
  it("a deployed function with expose_as_mcp_tool is a tool with its input_schema, for keys with functions:invoke only", async () => {
    const fn = await deployed(
      h.app,
      acme.key,
      "add-numbers",
      "export default async function (event) { return { sum: event.arguments.a + event.arguments.b }; }",
    );
    const inputSchema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
    const hidden = await connect(await h.app.addKey(acme, ["functions:invoke"]));
    expect(await names(hidden)).not.toContain("fn_add_numbers");
    const patched = await h.app.call("PATCH", `/functions/${fn.id}`, { key: acme.key, body: { expose_as_mcp_tool: true, input_schema: inputSchema } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);

    const invoker = await connect(await h.app.addKey(acme, ["functions:invoke"]));
    const tool = (await invoker.listTools()).tools.find((t) => t.name === "fn_add_numbers");
    expect(tool).toMatchObject({ title: "Function add-numbers", inputSchema });
    const result = await invoker.callTool({ name: "fn_add_numbers", arguments: { a: 2, b: 3 } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(textOf(result)).toMatchObject({ status: "ok", result: { sum: 5 } });
    const refused = await invoker.callTool({ name: "fn_add_numbers", arguments: { a: "two" } });
    expect(textOf(refused)).toMatchObject({ status: 400, error: "invalid_request" });

    expect(await names(await connect(await h.app.addKey(acme, ["conversations:read"])))).not.toContain("fn_add_numbers");
    expect(await names(await connect((await h.app.addProject(acme, "Elsewhere")).key))).not.toContain("fn_add_numbers");
    await h.app.call("PATCH", `/functions/${fn.id}`, { key: acme.key, body: { is_active: false } });
    expect(await names(invoker)).not.toContain("fn_add_numbers");
  });
});

describe("the HTTP request", () => {
  it("401 without a key or with an unknown one, in the API's error shape", async () => {
    const none = await post(toolsList);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: "missing_api_key" });
    expect(none.headers.get("request-id")).toBeTruthy();
    const client = new Client({ name: "no-key", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl()))).rejects.toThrow();
    const unknown = await post(toolsList, { authorization: "Bearer svc_live_unknownunknownunknownunknown" });
    expect(unknown.status).toBe(401);
  });

  it("a foreign Origin is refused with 403 origin_not_allowed; the server's own origin passes", async () => {
    const foreign = await post(toolsList, { authorization: `Bearer ${acme.key}`, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: "origin_not_allowed", origin: "https://evil.example" });
    const own = await post(toolsList, { authorization: `Bearer ${acme.key}`, origin: new URL(h.app.runtime.settings.publicUrl).origin });
    expect(own.status).toBe(200);
    expect((await own.json()).result.tools.length).toBeGreaterThan(0);
  });

  it("answers JSON with the API's headers; GET and DELETE are 405; batches are refused", async () => {
    const ok = await post(toolsList, { authorization: `Bearer ${acme.key}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toContain("application/json");
    expect(ok.headers.get("svc-version")).toBeTruthy();
    expect(ok.headers.get("ratelimit-limit")).toBeTruthy();
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(mcpUrl(), { method, headers: { authorization: `Bearer ${acme.key}`, accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(await res.json()).toMatchObject({ error: "method_not_allowed" });
    }
    const batch = await post([toolsList, { ...toolsList, id: 2 }], { authorization: `Bearer ${acme.key}` });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: "invalid_request" });
  });
});

describe("limits", () => {
  beforeAll(async () => {
    const plan = { mediaRetentionSeconds: 86_400 };
    await upsertPlan(h.app.db, { ...plan, id: "mcp_tiny", name: "MCP tiny window", requestsPerWindow: 3, windowSeconds: 600, monthlyRequests: 1_000_000 });
    await upsertPlan(h.app.db, { ...plan, id: "mcp_quota", name: "MCP tiny quota", requestsPerWindow: 100, windowSeconds: 600, monthlyRequests: 3 });
  });

  it("each MCP request counts against the key's rate limit, shared with REST: then 429 rate_limit", async () => {
    const tiny = await h.app.seed({ orgName: "MCP Tiny", planId: "mcp_tiny" });
    const client = await connect(tiny.key); // initialize + notifications/initialized: 2 requests
    expect(await names(client)).toContain("send_message"); // 3
    const limited = await post(toolsList, { authorization: `Bearer ${tiny.key}` });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-svc-limit-type")).toBe("rate_limit");
    expect(await limited.json()).toMatchObject({ error: "rate_limit" });
    expect((await h.app.call("GET", "/identity", { key: tiny.key })).status).toBe(429);
    await expect(client.listTools()).rejects.toThrow();
  });

  it("each MCP request counts against the monthly quota: then 429 monthly_quota_exceeded", async () => {
    const quota = await h.app.seed({ orgName: "MCP Quota", planId: "mcp_quota" });
    for (let i = 0; i < 3; i++) expect((await post({ ...toolsList, id: i }, { authorization: `Bearer ${quota.key}` })).status).toBe(200);
    const spent = await post(toolsList, { authorization: `Bearer ${quota.key}` });
    expect(spent.status).toBe(429);
    expect(await spent.json()).toMatchObject({ error: "monthly_quota_exceeded" });
  });
});
