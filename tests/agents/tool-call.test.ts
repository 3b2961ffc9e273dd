import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { conversations, flowDispatches, functionInvocations, messages } from "@/lib/db/schema";
import { callTool, loadAgentTools, type ToolCallInput, type ToolRow } from "@/lib/domain/agents/tool-call";
import { getToolRowOrThrow } from "@/lib/domain/agents/agent-row";
import { activeWebhookSecrets } from "@/lib/domain/projects";
import { verifyStandardWebhook, verifySvcSignature } from "@/lib/domain/webhooks/signing";
import type { Ctx } from "@/lib/domain/context";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { createFlow, publish, tester } from "../flows/support";
import { deployed } from "../functions/support";
import { addConnector, addTool, projectCtx, seedAgent } from "./connector-support";

/**
 * callTool against real backings: a flow sent through the simulator to a sandbox tester, a deployed
 * function, a local HTTP server receiving the API_ENDPOINT calls. A call never throws.
 */
interface Hit {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let h: Harness;
let seeded: Seeded;
let ctx: Ctx;
let agentId: string;
let forms: string;
let server: http.Server;
let baseUrl: string;
const hits: Hit[] = [];
const SECRET = "tok_0123456789abcdef";

beforeAll(async () => {
  h = await startHarness();
  seeded = await h.app.seed();
  agentId = await seedAgent(h.app, seeded.projectId);
  forms = (await addConnector(h.app, seeded.key, agentId, { name: "Forms", type: "FLOWS" })).id;
  ctx = await projectCtx(h.app, seeded.projectId);
  server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      hits.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      const failing = request.url?.startsWith("/api/fail") ?? false;
      response.writeHead(failing ? 503 : 200, { "content-type": failing ? "text/plain" : "application/json" });
      response.end(failing ? "down for maintenance" : JSON.stringify({ text: "Order 42 ships tomorrow.", echo: body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h?.close();
});

const CONTACT = { id: "ct_test", phone: "+15550001111", name: "Ana" };

async function toolRow(id: string): Promise<ToolRow> {
  return getToolRowOrThrow(ctx, id);
}

function call(tool: ToolRow, args: Record<string, unknown>, extra: Partial<ToolCallInput> = {}, on: Ctx = ctx) {
  return callTool(on, { tool, arguments: args, contact: CONTACT, conversationId: null, channelId: "ch_sandbox", dryRun: false, ...extra });
}

describe("NOOP tools", () => {
  it("return config.response as is", async () => {
    const tool = await addTool(h.app, seeded.key, forms, { name: "hours", backing_type: "NOOP", config: { response: { text: "9 to 5" } } });
    expect(await call(await toolRow(tool.id), { any: 1 })).toEqual({ tool: "hours", arguments: { any: 1 }, result: { text: "9 to 5" }, error: null });
  });

  it("check the arguments against input_schema: issues are the result's error, invalid_tool_arguments", async () => {
    const tool = await addTool(h.app, seeded.key, forms, {
      name: "needs_city",
      backing_type: "NOOP",
      config: { response: "ok" },
      input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
    });
    const row = await toolRow(tool.id);
    const missing = await call(row, { town: "Porto" });
    expect(missing.result).toBeNull();
    expect(missing.error?.code).toBe("invalid_tool_arguments");
    expect(missing.error?.message).toContain("arguments.city");
    expect(missing.error?.message).toContain("arguments.town");
    expect(await call(row, { city: "Porto" })).toMatchObject({ result: "ok", error: null });
  });
});

describe("HOSTED_FUNCTION tools", () => {
  it("run the function with event_type agent_tool and the arguments; its result is the call's", async () => {
    const fn = await deployed(h.app, seeded.key, "agent-echo", "export default async (event) => ({ text: 'hi ' + event.arguments.name, event });");
    const tool = await addTool(h.app, seeded.key, forms, { name: "echo", backing_type: "HOSTED_FUNCTION", backing_function_id: fn.id });
    const out = await call(await toolRow(tool.id), { name: "Ana" }, { conversationId: "conv_x" });
    expect(out.error).toBeNull();
    expect(out.result).toEqual({
      text: "hi Ana",
      event: { type: "agent_tool", tool: "echo", arguments: { name: "Ana" }, contact: CONTACT, conversation_id: "conv_x", channel_id: "ch_sandbox" },
    });
    const [invocation] = await h.app.db.select().from(functionInvocations).where(eq(functionInvocations.functionId, fn.id));
    expect(invocation).toMatchObject({ eventType: "agent_tool", status: "ok" });
  });

  it("a failing run, or a function switched off since, is the result's error", async () => {
    const fn = await deployed(h.app, seeded.key, "agent-throws", "export default async () => { throw new Error('boom'); };");
    const tool = await toolRow((await addTool(h.app, seeded.key, forms, { name: "throws", backing_type: "HOSTED_FUNCTION", backing_function_id: fn.id })).id);
    const failed = await call(tool, {});
    expect(failed.error?.code).toBe("function_error");
    expect(failed.error?.message).toContain("boom");
    await h.app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { is_active: false } });
    expect((await call(tool, {})).error?.code).toBe("function_inactive");
  });
});

describe("FLOW tools", () => {
  it("send the published flow to the customer's conversation; dryRun reports it and sends nothing", async () => {
    const flow = await publish(h, seeded.key, (await createFlow(h, seeded.key)).id);
    const tool = await toolRow(
      (
        await addTool(h.app, seeded.key, forms, {
          name: "sign_up",
          backing_type: "FLOW",
          backing_flow_id: flow.id,
          config: { body_text: "Sign up here", flow_cta: "Go" },
        })
      ).id,
    );
    const conversationId = await tester(h, seeded, "15551239001");
    const [conversation] = await h.app.db.select().from(conversations).where(eq(conversations.id, conversationId));
    const contact = { id: conversation!.contactId, phone: "+15551239001", name: "Ana" };

    const dry = await call(tool, {}, { conversationId, contact, dryRun: true });
    expect(dry).toEqual({ tool: "sign_up", arguments: {}, result: { flow_id: flow.id, sent: false }, error: null });
    expect(await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.flowId, flow.id))).toEqual([]);

    const sent = await call(tool, {}, { conversationId, contact });
    expect(sent.error).toBeNull();
    expect(sent.result).toMatchObject({ flow_id: flow.id, sent: true });
    const { message_id: messageId } = sent.result as { message_id: string };
    const [dispatch] = await h.app.db.select().from(flowDispatches).where(eq(flowDispatches.flowId, flow.id));
    expect(dispatch).toMatchObject({ messageId, conversationId });
    const [message] = await h.app.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.projectId, seeded.projectId)));
    expect(JSON.stringify(message)).toContain("Sign up here");
  });
});

describe("API_ENDPOINT tools", () => {
  async function apiTool(name: string, config: Record<string, unknown>, method: "GET" | "POST", path: string) {
    const connector = await addConnector(h.app, seeded.key, agentId, { name, type: "API", config: { base_url: baseUrl, ...config } });
    return toolRow((await addTool(h.app, seeded.key, connector.id, { name, backing_type: "API_ENDPOINT", config: { method, path } })).id);
  }

  it("POST: the arguments as JSON to base_url + path, signed like a webhook delivery, with the bearer token", async () => {
    const tool = await apiTool("order_post", { auth_type: "BEARER", secret: SECRET }, "POST", "/orders/lookup");
    hits.length = 0;
    const out = await call(tool, { order_id: "42" });
    expect(out.error).toBeNull();
    expect(out.result).toEqual({ text: "Order 42 ships tomorrow.", echo: '{"order_id":"42"}' });
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    expect(hit).toMatchObject({ method: "POST", url: "/api/orders/lookup", body: '{"order_id":"42"}' });
    expect(hit.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(hit.headers["content-type"]).toBe("application/json");
    const [secret] = activeWebhookSecrets(ctx.project, ctx.now);
    expect(verifySvcSignature(secret!, hit.body, hit.headers["x-svc-signature"] as string)).toBe(true);
    expect(verifyStandardWebhook(secret!, hit.headers, hit.body, { now: ctx.now })).toBe(true);
    expect(verifySvcSignature(secret!, '{"order_id":"43"}', hit.headers["x-svc-signature"] as string)).toBe(false);
  });

  it("GET: the arguments as the query; API_KEY in the configured header", async () => {
    const tool = await apiTool("order_get", { auth_type: "API_KEY", auth_header: "X-Shop-Key", secret: SECRET }, "GET", "/orders");
    hits.length = 0;
    const out = await call(tool, { order_id: "42", expand: ["items"] });
    expect(out.error).toBeNull();
    const hit = hits[0]!;
    expect(hit.method).toBe("GET");
    const url = new URL(hit.url, "http://x");
    expect(url.pathname).toBe("/api/orders");
    expect(Object.fromEntries(url.searchParams)).toEqual({ order_id: "42", expand: '["items"]' });
    expect(hit.headers["x-shop-key"]).toBe(SECRET);
    expect(hit.headers.authorization).toBeUndefined();
    const [secret] = activeWebhookSecrets(ctx.project, ctx.now);
    expect(verifySvcSignature(secret!, "", hit.headers["x-svc-signature"] as string)).toBe(true);
  });

  it("a non-2xx answer is tool_http_error", async () => {
    const tool = await apiTool("failing", { auth_type: "NONE" }, "POST", "/fail");
    const out = await call(tool, {});
    expect(out.error?.code).toBe("tool_http_error");
    expect(out.error?.message).toContain("503");
    expect(out.result).toBe("down for maintenance");
  });

  it("is refused for 127.0.0.1 when the settings do not allow private networks (tool_url_refused, nothing sent)", async () => {
    const tool = await apiTool("private_target", { auth_type: "NONE" }, "GET", "/orders");
    hits.length = 0;
    const guarded = { ...ctx, settings: { ...ctx.settings, allowPrivateNetwork: false } };
    const out = await call(tool, { order_id: "42" }, {}, guarded);
    expect(out.result).toBeNull();
    expect(out.error?.code).toBe("tool_url_refused");
    expect(hits).toHaveLength(0);
  });
});

describe("connector status and loadAgentTools", () => {
  it("a DISABLED connector's tools are not loaded, and a call to one is connector_disabled", async () => {
    const fresh = await h.app.addProject(seeded, "Tools list");
    const agent = await seedAgent(h.app, fresh.projectId);
    const on = await addConnector(h.app, fresh.key, agent, { name: "On", type: "CUSTOM" });
    const off = await addConnector(h.app, fresh.key, agent, { name: "Off", type: "CUSTOM" });
    const kept = await addTool(h.app, fresh.key, on.id, { name: "kept", backing_type: "NOOP", config: { response: 1 } });
    const hidden = await addTool(h.app, fresh.key, off.id, { name: "hidden", backing_type: "NOOP", config: { response: 2 } });
    await h.app.call("PATCH", `/business-agent-connectors/${off.id}`, { key: fresh.key, body: { status: "DISABLED" } });
    const freshCtx = await projectCtx(h.app, fresh.projectId);
    expect((await loadAgentTools(freshCtx, agent)).map((t) => t.id)).toEqual([kept.id]);
    // Another project's ctx sees none of them.
    expect(await loadAgentTools(ctx, agent)).toEqual([]);
    const row = await getToolRowOrThrow(freshCtx, hidden.id);
    expect((await call(row, {}, {}, freshCtx)).error?.code).toBe("connector_disabled");
  });
});
