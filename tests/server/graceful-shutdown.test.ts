import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/ports/db/open";
import { executeRows } from "@/lib/ports/db/bulk";
import { sql } from "drizzle-orm";
import { createSimulator } from "@/lib/simulator";
import { serveSimulator, type SimulatorServer } from "@/lib/simulator/server";
import { simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { freePort } from "../../bench/procs";
import { randomBase62 } from "../../bench/env";
import { providerTextDelivery, sandboxNumber, SANDBOX_SENDER } from "../../bench/provider-inbound";
import { startReceiver, type Receiver } from "../support/receiver";

/**
 * SIGTERM under load (issue 36 item 2; README "Running in production", "Stopping"): the app as a
 * process of its own (fixtures/app-process.ts: the same request tracking and shutdown as `next start`),
 * a provider simulator in this process, a webhook receiver slower than the shutdown bound. While
 * sends and inbound deliveries are in flight the process gets SIGTERM: readiness turns 503, every
 * request sent before the signal is answered (none 5xx), the process exits 0, and in its database no
 * job is left active: each one finished or went back to the queue.
 */
const SHUTDOWN_TIMEOUT_MS = 4_000;
/** Long enough for this test to see readiness 503 before the listener closes on a busy machine. */
const SHUTDOWN_DELAY_MS = 2_000;
const TESTERS = 6;

const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-shutdown-"));
let child: ChildProcess | null = null;
let simulator: SimulatorServer | null = null;
let receiver: Receiver | null = null;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await simulator?.close();
  await receiver?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function call(base: string, method: string, apiPath: string, key: string | null, body?: unknown) {
  const response = await fetch(`${base}${apiPath}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as any) : null };
}

async function until<T>(what: string, probe: () => T | null | Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the app process on `port`; resolves with its output so far (a getter) once it serves. */
async function startApp(port: number, key: string, graphUrl: string): Promise<{ output: () => string; exited: Promise<number | null> }> {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    PORT: String(port),
    SVC_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SVC_DATA_DIR: tmp,
    SVC_BOOTSTRAP_KEY: key,
    SVC_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    SVC_SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    SVC_ALLOW_PRIVATE_NETWORK: "true",
    SVC_SANDBOX_PARTICIPANT_CAP: String(TESTERS),
    PROVIDER_GRAPH_URL: graphUrl,
    PLATFORM_A_APP_SECRET: simulatorAppSecret("PLATFORM_A"),
  };
  // Its own embedded database and in-process limiter, whatever this run of the suite uses.
  delete environment.DATABASE_URL;
  delete environment.REDIS_URL;
  child = spawn(process.execPath, ["--import", "tsx", "tests/server/fixtures/app-process.ts"], { env: environment, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child!.on("exit", (code) => resolve(code)));
  await until(
    "the app process to serve",
    () => {
      if (child!.exitCode !== null) throw new Error(`the app process exited ${child!.exitCode}:\n${output}`);
      return output.includes("ready http") ? true : null;
    },
    90_000,
  );
  return { output: () => output, exited };
}

describe("SIGTERM under load", () => {
  it("answers every request it took, turns readiness 503, exits 0, and leaves no job active", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const key = `svc_live_${randomBase62(32)}`;
    simulator = await serveSimulator(
      createSimulator({ callbackBaseUrl: base, appSecret: simulatorAppSecret, statusDelaysMs: { sent: 20, delivered: 40, read: 60 }, log: () => {} }),
    );
    receiver = await startReceiver();
    // Slower than the shutdown bound: the deliveries in flight at SIGTERM cannot finish and must go back to the queue.
    receiver.reply = () => ({ status: 200, body: "ok", delayMs: 15_000 });
    const app = await startApp(port, key, `${simulator.url}/graph`);

    const identity = await call(base, "GET", "/api/v1/identity", key);
    const projectId: string = identity.body.project.id;
    const project = await call(base, "GET", `/api/v1/projects/${projectId}`, key);
    const testers = Array.from({ length: TESTERS }, (_, i) => `1555${String(i).padStart(6, "0")}1`);
    for (const from of testers) {
      const joined = await call(simulator.url, "POST", "/api/simulator/customer/messages", null, {
        platform: "PLATFORM_A",
        sender_id: SANDBOX_SENDER,
        from,
        type: "text",
        text: `join ${project.body.join_code}`,
      });
      expect(joined.body.delivered_status).toBe(200);
    }
    const conversations = await until(
      "the testers' conversations",
      async () => {
        const list = await call(base, "GET", "/api/v1/conversations?limit=50", key);
        return list.body.data.length >= TESTERS ? (list.body.data as { id: string }[]).map((c) => c.id) : null;
      },
      30_000,
    );
    expect((await call(base, "PATCH", `/api/v1/projects/${projectId}`, key, { webhook_url: receiver.url })).status).toBe(200);
    const channel = await call(base, "GET", "/api/v1/channels/ch_sandbox", key);
    const sandbox = sandboxNumber(channel.body.phone_number);

    // Deliveries in flight at the receiver first, then a burst of sends and inbound messages, then SIGTERM.
    const inbound: string[] = [];
    const deliver = async (from: string, text: string) => {
      const { id, request } = providerTextDelivery(base, sandbox, from, text);
      inbound.push(id);
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
      return response.status;
    };
    for (const from of testers.slice(0, 2)) expect(await deliver(from, "before")).toBe(200);
    await until("deliveries in flight at the receiver", () => (receiver!.received.length >= 2 ? true : null), 30_000);

    const burst = [
      ...conversations.map((conversationId, i) =>
        call(base, "POST", "/api/v1/messages", key, { channel_id: "ch_sandbox", conversation_id: conversationId, text: `burst ${i}` }).then((r) => ({
          status: r.status,
          messageId: (r.body?.id as string | undefined) ?? null,
        })),
      ),
      ...testers.map((from, i) => deliver(from, `burst ${i}`).then((status) => ({ status, messageId: null }))),
    ];
    // The burst has reached the process (its connections are accepted) and is being answered.
    await new Promise((resolve) => setTimeout(resolve, 100));
    child!.kill("SIGTERM");
    const draining = await until(
      `readiness to answer 503 (the process said:\n${app.output()})`,
      async () => {
        const ready = await call(base, "GET", "/readyz", null).catch(() => null);
        return ready?.status === 503 ? ready.body : null;
      },
      SHUTDOWN_DELAY_MS,
    );
    expect(draining.checks.process).toBe("draining");

    const answers = await Promise.all(burst);
    expect(answers.map((a) => a.status).filter((status) => status >= 500)).toEqual([]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const code = await app.exited;
    expect(code, app.output()).toBe(0);
    expect(app.output()).toMatch(/job\(s\) still running at the deadline went back to the queue/);

    // What the process left in its database: nothing active, every accepted send and inbound message stored with its work queued or done.
    const database = await openDatabase({ dataDir: path.join(tmp, "pglite"), migrate: false });
    try {
      const active = await executeRows<{ name: string }>(database.db, sql`select name from pgboss.job where state = 'active'`);
      expect(active).toEqual([]);
      const sent = answers.flatMap((a) => (a.messageId ? [a.messageId] : []));
      expect(sent).toHaveLength(TESTERS);
      const sends = await executeRows<{ id: string; pid: string | null; job: string | null }>(
        database.db,
        sql`select m.id, m.platform_message_id as pid, (select j.state::text from pgboss.job j where j.name = 'provider.send' and j.data->>'messageId' = m.id order by j.created_on desc limit 1) as job
            from messages m where m.id = any(${`{${sent.join(",")}}`}::text[])`,
      );
      expect(sends).toHaveLength(TESTERS);
      // Each was handed to the provider (it has the provider's id), or its send job waits in the queue.
      for (const row of sends) expect(row.pid !== null || ["created", "retry"].includes(row.job ?? ""), JSON.stringify(row)).toBe(true);
      // Each inbound message the endpoint answered 200 is stored, or its envelope waits for its ingest job.
      for (const id of inbound) {
        const [row] = await executeRows<{ stored: boolean; waiting: boolean }>(
          database.db,
          sql`select exists (select 1 from messages where platform_message_id = ${id}) as stored,
                exists (select 1 from inbound_webhooks w join pgboss.job j on j.name = 'ingest.process' and j.data->>'id' = w.id
                        where position(${id} in w.body::text) > 0 and j.state in ('created', 'retry')) as waiting`,
        );
        expect(row!.stored || row!.waiting, id).toBe(true);
      }
      const deliveries = await executeRows<{ status: string; job: string | null }>(
        database.db,
        sql`select d.status, (select j.state::text from pgboss.job j where j.name = 'webhook.deliver' and j.data->>'deliveryId' = d.id order by j.created_on desc limit 1) as job
            from webhook_deliveries d`,
      );
      const pending = deliveries.filter((d) => d.status === "pending");
      expect(pending.length).toBeGreaterThan(0);
      for (const d of pending) expect(["created", "retry"]).toContain(d.job);
    } finally {
      await database.close();
    }
  }, 180_000);
});
