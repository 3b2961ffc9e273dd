/**
 * The CLI's HTTP commands go through @svc/sdk, so they get what the SDK does on the wire: an
 * Idempotency-Key on every POST kept across a retry (a `config apply` whose answer was lost is
 * replayed, not applied twice), and a 503 retried after its Retry-After (`logout`). A real HTTP
 * server of the app sits behind a proxy that injects the fault once; the commands run in-process.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "@/cli/commands";
import { automations } from "@/lib/db/schema";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { startTestServer, type TestServer } from "../support/http-server";

let app: TestApp;
let server: TestServer;
let seeded: Seeded;
let dir: string;

beforeAll(async () => {
  app = await createTestApp();
  server = await startTestServer(() => app.runtime);
  seeded = await app.seed({ projectName: "CLI over the SDK" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-cli-sdk-"));
});
afterAll(async () => {
  await server?.close();
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** What the client got: the server's status, "lost" (connection cut after the server answered) or an injected status. */
  outcome: number | "lost";
  replayed: string | null;
}

/** What the proxy does with one request: pass it on, pass it on and cut the connection before the answer, or answer itself. */
type Fault = "forward" | "lose-answer" | { status: number; headers: Record<string, string>; body: unknown };

/** A proxy in front of the app's server; `fault` decides per request (n counts requests to the same method and path). */
async function startProxy(fault: (method: string, path: string, n: number) => Fault): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const counts = new Map<string, number>();
  const proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", server.url);
    const name = `${req.method} ${url.pathname}`;
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    const entry: Seen = { method: req.method!, path: url.pathname, idempotencyKey: header(req, "idempotency-key"), outcome: 0, replayed: null };
    seen.push(entry);
    const decision = fault(req.method!, url.pathname, n);
    if (typeof decision === "object") {
      entry.outcome = decision.status;
      res.writeHead(decision.status, { "content-type": "application/json", ...decision.headers });
      return res.end(JSON.stringify(decision.body));
    }
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) if (typeof value === "string" && key !== "host") headers.set(key, value);
    const upstream = await fetch(url, { method: req.method, headers, body: req.method === "GET" ? undefined : Buffer.concat(chunks) });
    const body = Buffer.from(await upstream.arrayBuffer());
    entry.replayed = upstream.headers.get("idempotent-replayed");
    if (decision === "lose-answer") {
      // The server acted and answered; the client never hears it.
      entry.outcome = "lost";
      return req.socket.destroy();
    }
    entry.outcome = upstream.status;
    const out = Object.fromEntries(
      [...upstream.headers].filter(([key]) => key !== "content-encoding" && key !== "content-length" && key !== "transfer-encoding"),
    );
    res.writeHead(upstream.status, out);
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

function header(req: http.IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value : null;
}

async function runCommand(group: string, name: string, flags: Record<string, string>): Promise<string[]> {
  const command = commands.find((c) => c.group === group && c.name === name)!;
  const lines: string[] = [];
  const db = async () => {
    throw new Error("an HTTP command must not open the database");
  };
  await command.run(flags, { db, out: (line) => lines.push(stripVTControlCharacters(line)) });
  return lines;
}

const DOCUMENT = `version: 1
flows: []
automations:
  - key: lost-answer
    name: Lost answer
    trigger: { type: KEYWORD, keywords: [lost] }
    steps:
      - send_reply: { text: "Found" }
`;

describe("the CLI's HTTP commands, through the SDK", () => {
  it("config apply whose answer is lost is retried with the same Idempotency-Key: the server replays it, the automation exists once", async () => {
    const proxy = await startProxy((method, pathname, n) => (method === "POST" && pathname === "/api/v1/config/apply" && n === 1 ? "lose-answer" : "forward"));
    try {
      const file = path.join(dir, "lost.yaml");
      fs.writeFileSync(file, DOCUMENT);
      const lines = await runCommand("config", "apply", { file, url: `${proxy.url}/api/v1`, key: seeded.key });
      // The first answer, replayed: a second apply would have said "Nothing to apply".
      expect(lines).toContain("  + automation lost-answer");
      expect(lines.at(-1)).toMatch(/^Applied: 1 created/);
      const applies = proxy.seen.filter((s) => s.path === "/api/v1/config/apply");
      expect(applies.map((s) => s.outcome)).toEqual(["lost", 200]);
      expect(applies[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(applies[1]!.idempotencyKey).toBe(applies[0]!.idempotencyKey);
      expect(applies[1]!.replayed).toBe("true");
    } finally {
      await proxy.close();
    }
    const rows = await app.db
      .select({ id: automations.id })
      .from(automations)
      .where(and(eq(automations.projectId, seeded.projectId), eq(automations.key, "lost-answer")));
    expect(rows).toHaveLength(1);
  });

  it("logout retries a 503 after its Retry-After, then revokes the key and deletes the stored login", async () => {
    const proxy = await startProxy((method, pathname, n) =>
      method === "POST" && pathname === "/api/cli/logout" && n === 1
        ? { status: 503, headers: { "retry-after": "1" }, body: { error: "database_unavailable", message: "The database is unavailable; retry." } }
        : "forward",
    );
    const key = await app.addKey(seeded, ["*"]);
    expect((await app.call("GET", "/identity", { key })).status).toBe(200);
    const configHome = path.join(dir, "config");
    const file = path.join(configHome, "svc", "credentials.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ url: `${proxy.url}/api/v1`, key, key_id: "key_logout", project_id: seeded.projectId }));
    const before = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = configHome;
    const started = Date.now();
    try {
      const lines = await runCommand("logout", "", {});
      expect(lines[0]).toMatch(/^Revoked key \S+ on http:\/\/127\.0\.0\.1:\d+\.$/);
      expect(lines).toContain(`Deleted ${file}.`);
    } finally {
      if (before === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = before;
      await proxy.close();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(proxy.seen.filter((s) => s.path === "/api/cli/logout").map((s) => s.outcome)).toEqual([503, 200]);
    expect(fs.existsSync(file)).toBe(false);
    expect((await app.call("GET", "/identity", { key })).status).toBe(401);
    expect((await app.call("GET", "/identity", { key: seeded.key })).status).toBe(200);
  });
});
