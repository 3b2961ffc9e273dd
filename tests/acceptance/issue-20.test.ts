import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { startHarness, type Harness } from "../messages/support";
import { joinCodeOf, joinTesters, testerNumber } from "../messages/send-support";
import { addOperator, dash, type Operator } from "../dashboard/support";

/**
 * Issue 20's acceptance over a real HTTP server: `svc login` (the real CLI in its own process) yields
 * a working key once an operator approves the code through the dashboard's route; an MCP client from
 * the official SDK lists only what that key's scopes allow and sends a message with it; the SDK's
 * example script sends one with the same key; the audit log names who created the key.
 */
let h: Harness;
let acme: Seeded;
let admin: Operator;
let home: string;
let conversations: Record<string, string>;
const testers = { mcp: testerNumber(), sdk: testerNumber() };
const root = path.resolve(import.meta.dirname, "..", "..");

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed({ orgName: "Acceptance 20" });
  admin = await addOperator(h.app, acme, "admin");
  home = fs.mkdtempSync(path.join(os.tmpdir(), "svc-issue-20-"));
  conversations = (await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), Object.values(testers))).conversations;
}, 90_000);
afterAll(async () => {
  await h?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const cliEnv = () => ({ ...process.env, NO_COLOR: "1", SVC_API_URL: "", SVC_API_KEY: "", HOME: home, XDG_CONFIG_HOME: path.join(home, "config") });

/** `svc login --url <server>`; `approve` runs once the code is on its stdout. The app's clock follows the wall clock meanwhile (the poll is paced by it). */
function login(approve: (userCode: string) => Promise<unknown>): Promise<{ code: number; stdout: string; stderr: string }> {
  const tick = setInterval(() => h.app.clock.set(Date.now()), 50);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/index.ts", "login", "--url", h.server.url], { cwd: root, env: cliEnv() });
    let stdout = "";
    let stderr = "";
    let approved = false;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /shows this code: ([A-Z]{4}-[A-Z]{4})/.exec(stdout);
      if (match && !approved) {
        approved = true;
        approve(match[1]!).catch(reject);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill(), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      clearInterval(tick);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

async function mcpClient(key: string): Promise<Client> {
  const client = new Client({ name: "acceptance-20", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.server.url}/api/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  return client;
}

describe("issue 20: login, MCP and the SDK with the key the login made", () => {
  it("svc login → dashboard approval → a stored key that MCP and the SDK example both send with", { timeout: 120_000 }, async () => {
    const scopes = ["messages:send", "conversations:read"];
    const result = await login(async (userCode) => {
      const approved = await dash(h.app, "POST", `/cli/device-codes/${userCode}/approve`, { as: admin, body: { project_id: acme.projectId, scopes } });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const stored = JSON.parse(fs.readFileSync(path.join(home, "config", "svc", "credentials.json"), "utf8")) as { key: string; key_id: string };
    expect(stored.key).toMatch(/^svc_live_/);

    // The key works, with exactly the approved scopes.
    expect((await h.app.call("GET", `/conversations/${conversations[testers.mcp]}`, { key: stored.key })).status).toBe(200);
    expect((await h.app.call("GET", "/contacts", { key: stored.key })).status).toBe(403);

    // MCP: only the tools those scopes allow; the send tool sends.
    const mcp = await mcpClient(stored.key);
    try {
      const names = (await mcp.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual([
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
      const sent = await mcp.callTool({
        name: "send_message",
        arguments: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations[testers.mcp], text: "Hello from an assistant" },
      });
      expect(sent.isError, JSON.stringify(sent.content)).toBeFalsy();
      const id = (sent.structuredContent as { id: string }).id;
      const read = await h.app.call("GET", `/messages/${id}`, { key: acme.key });
      expect(read.body).toMatchObject({ id, direction: "outbound", content: "Hello from an assistant" });
    } finally {
      await mcp.close();
    }
    const readOnly = await mcpClient(await h.app.addKey(acme, ["conversations:read", "contacts:read"]));
    try {
      expect((await readOnly.listTools()).tools.map((t) => t.name)).not.toContain("send_message");
    } finally {
      await readOnly.close();
    }

    // The SDK's example script, typed against the generated schema, with the same key.
    const example = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "examples/sdk-send-message.ts"],
        {
          cwd: root,
          env: { ...cliEnv(), SVC_API_KEY: stored.key, SVC_API_URL: `${h.server.url}/api/v1`, TO: `+${testers.sdk}`, TEXT: "Hello from the SDK" },
          timeout: 60_000,
        },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(example.stderr).toBe("");
    const match = /^message (msg_\S+) queued \(conversation (\S+),/m.exec(example.stdout);
    expect(match, example.stdout).not.toBeNull();
    expect(match![2]).toBe(conversations[testers.sdk]);
    expect((await h.app.call("GET", `/messages/${match![1]}`, { key: acme.key })).body).toMatchObject({ content: "Hello from the SDK" });

    // The audit log says who made the key, and how.
    const audit = await h.app.call("GET", "/audit-events?action=api_key.created", { key: acme.key });
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: "user", id: admin.userId, display: admin.email },
      target: { type: "api_key", id: stored.key_id },
      details: { via: "cli_login", scopes: [...scopes].sort() },
    });
    expect(JSON.stringify(audit.body)).not.toContain(stored.key);
  });
});
