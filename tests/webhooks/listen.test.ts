import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodeTime } from "ulid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWebhookSecret } from "@/lib/domain/projects/secrets";
import { emitEvent } from "@/lib/domain/events";
import { LISTEN_SETTLE_MS } from "@/lib/domain/webhooks/listen";
import { checkStandardWebhook, verifySvcSignature } from "@/lib/domain/webhooks/signing";
import type { EventType } from "@/lib/shared/event-types";
import type { Seeded } from "../support/app";
import { startReceiver, type Receiver } from "../support/receiver";
import { startHarness, type Harness } from "../messages/support";
import { testerNumber } from "../messages/send-support";

/**
 * `svc listen` (cli/listen.ts) and the long poll behind it, GET /api/v1/events/listen
 * (lib/domain/webhooks/listen.ts), over a real HTTP server of the app.
 *
 * The service clock is the harness's FixedClock: the route holds back events younger than
 * LISTEN_SETTLE_MS on that clock, so a test makes its events streamable by moving the clock past
 * them (release). Event ids come from a process-wide monotonic ULID factory that also mints ids
 * from the wall clock, so "past them" means past both the wall clock and the service clock.
 */

interface Streamed {
  object: "event";
  id: string;
  type: string;
  created_at: string;
  body: string;
  headers: Record<string, string>;
}
interface Answer {
  status: number;
  headers: Headers;
  body: { object: string; data: Streamed[]; cursor: string; has_more: boolean } & Record<string, unknown>;
}

let h: Harness;
let acme: Seeded;
/** A least-privilege key: projects:read is all the route needs. */
let reader: string;
let secret: string;
let home: string;

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed({ orgName: "Listen Co" });
  reader = await h.app.addKey(acme, ["projects:read"]);
  secret = await webhookSecretOf(acme.projectId, acme.key);
  home = fs.mkdtempSync(path.join(os.tmpdir(), "svc-listen-"));
}, 60_000);
afterAll(async () => {
  await h?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

async function webhookSecretOf(projectId: string, key: string): Promise<string> {
  const project = await h.app.call("GET", `/projects/${projectId}`, { key });
  expect(project.body.webhook_secret).toMatch(/^whsec_/);
  return project.body.webhook_secret;
}

/** GET /api/v1/events/listen over HTTP. */
async function listen(key: string | null, query: Record<string, string | number> = {}): Promise<Answer> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const response = await fetch(`${h.server.url}/api/v1/events/listen?${params}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The cursor of a fresh listener ("start from now"). */
async function startCursor(key: string): Promise<string> {
  const started = await listen(key);
  expect(started.status).toBe(200);
  return started.body.cursor;
}

/** An event of the project, stored as the domain stores them (with its delivery, when the project has a webhook_url). */
async function emit(projectId: string, type: EventType, payload: Record<string, unknown> = {}, deliver?: boolean): Promise<string> {
  const id = await emitEvent(h.app.systemCtx(), {
    project: { id: projectId },
    type,
    payload: { note: `${type} ${Math.random()}`, ...payload },
    at: h.app.clock.now(),
    ...(deliver === undefined ? {} : { deliver, route: deliver ? "external" : "none" }),
  });
  return id!;
}

/** Moves the service clock past every id minted so far and the settle window: what exists now may be streamed. */
function release(): void {
  h.app.clock.set(Math.max(Date.now(), h.app.clock.now().getTime()) + LISTEN_SETTLE_MS + 1);
}

const timeOf = (eventId: string) => decodeTime(eventId.slice("evt_".length).toUpperCase());
const ids = (answer: Answer) => answer.body.data.map((e) => e.id);

describe("GET /events/listen: access", () => {
  it("needs projects:read: 403 insufficient_scope without it, 401 without a key", async () => {
    const narrow = await h.app.addKey(acme, ["messages:send", "conversations:read"]);
    const refused = await listen(narrow);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "insufficient_scope", message: expect.any(String), required_scope: "projects:read" });
    const anonymous = await listen(null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: "missing_api_key", message: expect.any(String) });
    expect((await listen(reader)).status).toBe(200);
  });
});

describe("GET /events/listen: the stream", () => {
  it("without `after` answers a cursor only, past every existing event: history is never replayed", async () => {
    const old = await emit(acme.projectId, "message.status");
    release();
    const started = await listen(reader, { wait: 25 });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ object: "event_batch", data: [], cursor: expect.stringMatching(/^evt_[0-9a-z]{26}$/), has_more: false });
    expect(started.body.cursor >= old).toBe(true);
    const next = await listen(reader, { after: started.body.cursor, wait: 0 });
    expect(next.status).toBe(200);
    expect(next.body.data).toEqual([]);
  });

  it("answers the events newer than the cursor, oldest first, each as a delivery of it; the next cursor carries on after them", async () => {
    const cursor = await startCursor(reader);
    const emitted = [
      await emit(acme.projectId, "message.status", { status: "delivered" }),
      await emit(acme.projectId, "participant.joined", { phone: "+15550001111" }),
      await emit(acme.projectId, "message.status", { status: "read" }),
    ];
    release();
    const answer = await listen(reader, { after: cursor, wait: 0 });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toBe("event_batch");
    expect(answer.body.has_more).toBe(false);
    expect(ids(answer)).toEqual(emitted);
    expect(answer.body.data.map((e) => e.type)).toEqual(["message.status", "participant.joined", "message.status"]);
    const rows = await h.eventsOf(acme.projectId);
    for (const event of answer.body.data) {
      const row = rows.find((r) => r.id === event.id)!;
      expect(event).toMatchObject({ object: "event", created_at: row.createdAt.toISOString() });
      const body = JSON.parse(event.body);
      expect(Object.keys(body)).toEqual(["event", "payload", "sentAt"]);
      expect(body).toEqual({ event: event.type, payload: row.payload, sentAt: h.app.clock.now().toISOString() });
      expect(event.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "svc-webhooks/1.0",
        "x-svc-event": event.type,
        "x-svc-delivery": event.id,
        "webhook-id": event.id,
      });
    }
    expect(answer.body.cursor >= emitted[2]!).toBe(true);
    expect((await listen(reader, { after: answer.body.cursor, wait: 0 })).body.data).toEqual([]);
  });

  it("pages with limit: a full batch says has_more and its cursor is its last event", async () => {
    const cursor = await startCursor(reader);
    const emitted = [await emit(acme.projectId, "message.status"), await emit(acme.projectId, "message.status"), await emit(acme.projectId, "message.status")];
    release();
    const first = await listen(reader, { after: cursor, wait: 0, limit: 2 });
    expect(ids(first)).toEqual(emitted.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    expect(first.body.cursor).toBe(emitted[1]);
    const second = await listen(reader, { after: first.body.cursor, wait: 0, limit: 2 });
    expect(ids(second)).toEqual(emitted.slice(2));
    expect(second.body.has_more).toBe(false);
  });

  it("holds back the newest second and streams it once settled: the cursor never passes an event it did not hand out", async () => {
    const cursor = await startCursor(reader);
    const event = await emit(acme.projectId, "message.status");
    h.app.clock.set(timeOf(event) + LISTEN_SETTLE_MS / 2);
    const early = await listen(reader, { after: cursor, wait: 0 });
    expect(early.body.data).toEqual([]);
    expect(early.body.cursor < event).toBe(true);
    h.app.clock.set(timeOf(event) + LISTEN_SETTLE_MS + 1);
    expect(ids(await listen(reader, { after: early.body.cursor, wait: 0 }))).toEqual([event]);
  });

  it("streams only what a webhook would receive: an event not routed to the webhook (deliver false) never comes", async () => {
    const cursor = await startCursor(reader);
    const notDelivered = await emit(acme.projectId, "message.received", { text: "routed to automations" }, false);
    const delivered = await emit(acme.projectId, "message.received", { text: "routed to the webhook" }, true);
    release();
    const answer = await listen(reader, { after: cursor, wait: 0 });
    expect(ids(answer)).toEqual([delivered]);
    expect(ids(answer)).not.toContain(notDelivered);
  });

  it("types keeps only those event types, and the cursor moves past the others", async () => {
    const cursor = await startCursor(reader);
    const status = await emit(acme.projectId, "message.status");
    await emit(acme.projectId, "participant.joined");
    const template = await emit(acme.projectId, "template.status");
    release();
    const answer = await listen(reader, { after: cursor, wait: 0, types: "message.status, template.status" });
    expect(ids(answer)).toEqual([status, template]);
    expect((await listen(reader, { after: answer.body.cursor, wait: 0 })).body.data).toEqual([]);
  });

  it("wait: a long poll with nothing to hand out keeps waiting, and answers as soon as an event lands", { timeout: 15_000 }, async () => {
    const cursor = await startCursor(reader);
    let answered = false;
    const pending = listen(reader, { after: cursor, wait: 25 }).finally(() => (answered = true));
    // A few of the route's database polls go by with nothing to hand out: it is still waiting.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(answered).toBe(false);
    const event = await emit(acme.projectId, "message.status", { status: "sent" });
    release();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([event]);
  });

  it("never hands out another project's events", async () => {
    const sibling = await h.app.addProject(acme, "Listen sibling");
    const ours = await startCursor(reader);
    const theirs = await startCursor(sibling.key);
    const foreign = await emit(sibling.projectId, "message.status");
    release();
    expect((await listen(reader, { after: ours, wait: 0 })).body.data).toEqual([]);
    // The event itself is streamable: to its own project.
    expect(ids(await listen(sibling.key, { after: theirs, wait: 0 }))).toEqual([foreign]);
  });

  it("a bad query is a 400 invalid_request naming the field", async () => {
    const cursor = await startCursor(reader);
    const cases: [Record<string, string | number>, string][] = [
      [{ after: "evt_123" }, "after"],
      [{ after: "cursor-of-nothing" }, "after"],
      [{ after: cursor, wait: 26 }, "wait"],
      [{ after: cursor, wait: -1 }, "wait"],
      [{ after: cursor, wait: "soon" }, "wait"],
      [{ after: cursor, limit: 0 }, "limit"],
      [{ after: cursor, limit: 101 }, "limit"],
      [{ after: cursor, types: "message.status,message.sent" }, "types"],
    ];
    for (const [query, field] of cases) {
      const refused = await listen(reader, query);
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect(refused.body, JSON.stringify(query)).toEqual({ error: "invalid_request", message: expect.any(String), issues: { [field]: expect.any(Array) } });
      expect(refused.headers.get("request-id")).toMatch(/^req_/);
    }
    const unknownType = await listen(reader, { after: cursor, types: "message.sent" });
    expect((unknownType.body.issues as { types: string[] }).types[0]).toContain("'message.sent'");
  });
});

describe("GET /events/listen: signatures", () => {
  it("a streamed event verifies with the project's webhook secret (verifySvcSignature, checkStandardWebhook), and with no other", async () => {
    const cursor = await startCursor(reader);
    await emit(acme.projectId, "message.status", { text: "Olá 👋, non-ASCII bytes are signed as sent" });
    release();
    const [event] = (await listen(reader, { after: cursor, wait: 0 })).body.data;
    expect(event).toBeDefined();
    const { body, headers } = event!;
    expect(verifySvcSignature(secret, body, headers["x-svc-signature"])).toBe(true);
    expect(verifySvcSignature(secret, Buffer.from(body, "utf8"), headers["x-svc-signature"])).toBe(true);
    expect(checkStandardWebhook(secret, headers, body, { now: h.app.clock.now() })).toEqual({ valid: true });
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(h.app.clock.now().getTime() / 1000)));
    const stranger = generateWebhookSecret();
    expect(verifySvcSignature(stranger, body, headers["x-svc-signature"])).toBe(false);
    expect(checkStandardWebhook(stranger, headers, body, { now: h.app.clock.now() })).toMatchObject({ valid: false });
    expect(headers).not.toHaveProperty("x-svc-signature-previous");
  });

  it("body and headers are byte for byte those a real delivery of the same event carries", async () => {
    const receiver = await startReceiver();
    try {
      // Its own project: only it has a webhook_url, so only its events are delivered.
      const hooked = await h.app.addProject(acme, "Listen hooked");
      const patched = await h.app.call("PATCH", `/projects/${hooked.projectId}`, { key: hooked.key, body: { webhook_url: `${receiver.url}/hook` } });
      expect(patched.status).toBe(200);
      const cursor = await startCursor(hooked.key);
      const eventId = await emit(hooked.projectId, "message.status", { status: "delivered", text: "é 👋" });
      release();
      const [streamed] = (await listen(hooked.key, { after: cursor, wait: 0 })).body.data;
      expect(streamed?.id).toBe(eventId);
      // The delivery attempt runs at the same service time (the clock has not moved since the listen).
      await h.app.runtime.ports.queue.drain();
      const [delivered] = await receiver.waitFor(1);
      expect(delivered!.raw).toBe(streamed!.body);
      for (const [name, value] of Object.entries(streamed!.headers)) expect(delivered!.headers[name], name).toBe(value);
      const signed = (headers: Record<string, unknown>) => Object.keys(headers).filter((n) => n.startsWith("x-svc-") || n.startsWith("webhook-"));
      expect(signed(delivered!.headers).sort()).toEqual(signed(streamed!.headers).sort());
      expect(verifySvcSignature(patched.body.webhook_secret, delivered!.raw, delivered!.headers["x-svc-signature"] as string)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it("during a rotation both secrets verify: x-svc-signature the new one, x-svc-signature-previous the old one", async () => {
    const rotating = await h.app.addProject(acme, "Listen rotating");
    const old = await webhookSecretOf(rotating.projectId, rotating.key);
    const rotated = await h.app.call("POST", `/projects/${rotating.projectId}/rotate-webhook-secret`, { key: rotating.key });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.webhook_secret;
    expect(fresh).not.toBe(old);
    const cursor = await startCursor(rotating.key);
    await emit(rotating.projectId, "message.status");
    release();
    const [event] = (await listen(rotating.key, { after: cursor, wait: 0 })).body.data;
    const { body, headers } = event!;
    expect(verifySvcSignature(fresh, body, headers["x-svc-signature"])).toBe(true);
    expect(verifySvcSignature(old, body, headers["x-svc-signature-previous"])).toBe(true);
    for (const s of [fresh, old]) expect(checkStandardWebhook(s, headers, body, { now: h.app.clock.now() })).toEqual({ valid: true });
  });
});

describe("svc listen --forward-to (the real CLI in its own process)", () => {
  interface Exit {
    code: number | null;
    stdout: string;
    stderr: string;
  }
  interface Listener {
    child: ChildProcessWithoutNullStreams;
    stdout: () => string;
    stderr: () => string;
    /** Resolves once stdout matches (bounded). */
    waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
    /** Ctrl-C, then its exit code and output. */
    stop(): Promise<Exit>;
    exited: Promise<Exit>;
  }

  function startCli(args: string[]): Listener {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/index.ts", "listen", ...args], {
      cwd: process.cwd(),
      env: { ...process.env, NO_COLOR: "1", SVC_API_URL: "", SVC_API_KEY: "", HOME: home, XDG_CONFIG_HOME: path.join(home, "config") },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<Exit>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
    const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
    void exited.then(() => clearTimeout(kill));
    return {
      child,
      stdout: () => stdout,
      stderr: () => stderr,
      exited,
      async waitForOutput(pattern, timeoutMs = 20_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const match = pattern.exec(stdout);
          if (match) return match[0];
          if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} in the CLI's output.\nstdout:\n${stdout}\nstderr:\n${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async stop() {
        child.kill("SIGINT");
        return exited;
      },
    };
  }

  const listenArgs = (forwardTo: string, key: string, extra: string[] = []) => [
    "--forward-to",
    forwardTo,
    "--url",
    `${h.server.url}/api/v1`,
    "--key",
    key,
    ...extra,
  ];

  /** A customer's inbound text through the simulator, processed, and made streamable. */
  async function inbound(from: string, text: string): Promise<string> {
    const { message_id } = await h.customer({ from, type: "text", text });
    await h.settle(20);
    release();
    return message_id;
  }

  const texts = (receiver: Receiver) => receiver.received.map((r) => JSON.parse(r.raw).payload.text as string);

  it("forwards an inbound message to the local URL as a delivery the project's secret verifies, then stops on Ctrl-C", { timeout: 45_000 }, async () => {
    const tester = testerNumber();
    await h.join(acme.projectId, tester);
    const receiver = await startReceiver();
    const cli = startCli(listenArgs(`${receiver.url}/hook`, reader, ["--events", "message.received"]));
    let stopped: Exit;
    try {
      await cli.waitForOutput(/Ready! Forwarding message\.received to http:\/\/127\.0\.0\.1:\d+\/hook/);
      const messageId = await inbound(tester, "is my order ready?");
      const [got] = await receiver.waitFor(1, 20_000);
      expect(got!.path).toBe("/hook");
      expect(got!.headers).toMatchObject({ "content-type": "application/json", "user-agent": "svc-webhooks/1.0", "x-svc-event": "message.received" });
      const eventId = got!.headers["x-svc-delivery"] as string;
      expect(got!.headers["webhook-id"]).toBe(eventId);
      // The project's real event, its payload as stored.
      const [row] = (await h.eventsOf(acme.projectId, "message.received")).filter((e) => e.id === eventId);
      expect(row).toBeDefined();
      const body = JSON.parse(got!.raw);
      expect(Object.keys(body)).toEqual(["event", "payload", "sentAt"]);
      expect(body.event).toBe("message.received");
      expect(body.payload).toEqual(row!.payload);
      expect(body.payload).toMatchObject({ type: "text", text: "is my order ready?", from: `+${tester}` });
      expect(body.payload.messages[0].id).toBe(messageId);
      // Verified with the repo's own verifiers and the project's secret, as a local handler would.
      expect(verifySvcSignature(secret, got!.raw, got!.headers["x-svc-signature"] as string)).toBe(true);
      expect(checkStandardWebhook(secret, got!.headers, got!.raw, { now: h.app.clock.now() })).toEqual({ valid: true });
      expect(verifySvcSignature(generateWebhookSecret(), got!.raw, got!.headers["x-svc-signature"] as string)).toBe(false);
      await cli.waitForOutput(new RegExp(`<-- \\[200\\] POST http://127\\.0\\.0\\.1:\\d+/hook \\[${eventId}\\]`));
      expect(cli.stdout()).toContain(`--> message.received [${eventId}]`);
    } finally {
      // Ctrl-C (also when an assertion above failed: no CLI outlives its test).
      stopped = await cli.stop();
      await receiver.close();
    }
    expect(stopped.stderr).toBe("");
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("Stopped.");
    // Only the one event: with --events the join's and others' events are not forwarded.
    expect(receiver.received).toHaveLength(1);
  });

  it("a receiver answering 500 does not stop it: it logs the answer and forwards the next event", { timeout: 45_000 }, async () => {
    const tester = testerNumber();
    await h.join(acme.projectId, tester);
    const receiver = await startReceiver();
    receiver.reply = (_request, index) => (index === 0 ? { status: 500, body: "handler crashed" } : { status: 200, body: "ok" });
    const cli = startCli(listenArgs(`${receiver.url}/hook`, reader, ["--events", "message.received"]));
    let stopped: Exit;
    try {
      await cli.waitForOutput(/Ready! Forwarding/);
      await inbound(tester, "first, answered 500");
      await receiver.waitFor(1, 20_000);
      await cli.waitForOutput(/<-- \[500\] POST http:\/\/127\.0\.0\.1:\d+\/hook \[evt_/);
      await inbound(tester, "second, answered 200");
      await receiver.waitFor(2, 20_000);
      await cli.waitForOutput(/<-- \[200\] POST/);
      // Each event once, in order: the 500 was logged, not retried, and the loop went on.
      expect(texts(receiver)).toEqual(["first, answered 500", "second, answered 200"]);
      for (const r of receiver.received) expect(verifySvcSignature(secret, r.raw, r.headers["x-svc-signature"] as string)).toBe(true);
      expect(cli.child.exitCode).toBeNull();
    } finally {
      stopped = await cli.stop();
      await receiver.close();
    }
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("Stopped.");
  });

  it("exits non-zero with the reason when the key may not listen (no retry loop)", { timeout: 45_000 }, async () => {
    const receiver = await startReceiver();
    try {
      const narrow = await h.app.addKey(acme, ["messages:send"]);
      const result = await startCli(listenArgs(`${receiver.url}/hook`, narrow)).exited;
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("HTTP 403 insufficient_scope");
      expect(result.stderr).toContain("the key needs the projects:read scope");
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});
