import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "@/lib/domain/agents/tool-call";
import { getToolRowOrThrow } from "@/lib/domain/agents/agent-row";
import { startHarness, type Harness } from "../messages/support";
import { flowsProject, insertAutomation, say } from "../automations/support";
import { addConnector, addTool, projectCtx, seedAgent } from "../agents/connector-support";
import { deployed } from "./support";

/**
 * The invocation log names how each run was called (docs/spec/decisions.md "Hosted functions"):
 * `test`, `invoke`, `automation`, `agent_tool`, `mcp_tool`. One function, called each way for real.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 30_000);
afterAll(() => h?.close());

async function mcpCall(key: string, name: string, args: Record<string, unknown>) {
  const res = await fetch(`${h.server.url}/api/v1/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const body = (await res.json()) as { result?: { isError?: boolean; structuredContent?: { status?: string } } };
  expect(body.result?.isError, JSON.stringify(body)).toBeFalsy();
  expect(body.result?.structuredContent?.status).toBe("ok");
}

describe("GET /functions/{id}/invocations?event_type=", () => {
  it("logs each way a function runs under its own event_type", async () => {
    const { seeded, tester } = await flowsProject(h);
    const fn = await deployed(h.app, seeded.key, "everywhere", "export default async () => ({ text: 'done' });");
    await h.app.call("PATCH", `/functions/${fn.id}`, { key: seeded.key, body: { expose_as_mcp_tool: true } });

    expect((await h.app.call("POST", `/functions/${fn.id}/test`, { key: seeded.key, body: { text: "hi" } })).body.status).toBe("ok");
    expect((await h.app.call("POST", `/functions/${fn.id}/invoke`, { key: seeded.key, body: {} })).body.status).toBe("ok");
    await insertAutomation(h.app, seeded.projectId, {
      key: "everywhere",
      name: "Everywhere",
      trigger: { type: "KEYWORD", keywords: ["go"] },
      steps: [{ run_function: { function: "everywhere" } }],
    });
    await say(h, tester, "go");
    const agentId = await seedAgent(h.app, seeded.projectId);
    const connector = await addConnector(h.app, seeded.key, agentId, { name: "Functions", type: "FLOWS" });
    const tool = await addTool(h.app, seeded.key, connector.id, { name: "everywhere", backing_type: "HOSTED_FUNCTION", backing_function_id: fn.id });
    const ctx = await projectCtx(h.app, seeded.projectId);
    const called = await callTool(ctx, {
      tool: await getToolRowOrThrow(ctx, tool.id),
      arguments: {},
      contact: { id: "ct_x", phone: "+15550001111", name: "Ana" },
      conversationId: null,
      channelId: "ch_sandbox",
      dryRun: false,
    });
    expect(called.error).toBeNull();
    await mcpCall(seeded.key, "fn_everywhere", {});
    await mcpCall(seeded.key, "invoke_function", { id: fn.id, arguments: {} });

    const all = await h.app.call("GET", `/functions/${fn.id}/invocations?limit=100`, { key: seeded.key });
    const types = (all.body.data as { event_type: string }[]).map((row) => row.event_type).sort();
    expect(types).toEqual(["agent_tool", "automation", "invoke", "mcp_tool", "mcp_tool", "test"]);
    for (const type of ["test", "invoke", "automation", "agent_tool", "mcp_tool"]) {
      const filtered = await h.app.call("GET", `/functions/${fn.id}/invocations?event_type=${type}`, { key: seeded.key });
      expect(filtered.status).toBe(200);
      expect(filtered.body.data.length, type).toBe(type === "mcp_tool" ? 2 : 1);
    }
  });
});
