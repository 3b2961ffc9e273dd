import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleDashboard } from "@/lib/dashboard/dispatch";
import { openInboxStream } from "@/lib/dashboard/inbox-stream";
import { setDraining } from "@/lib/server/shutdown-state";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import { startHarness, type Harness } from "../messages/support";
import type { Seeded } from "../support/app";
import { addOperator, dash, type Operator } from "./support";

/**
 * GET /api/dashboard/projects/{id}/inbox/stream through the real dashboard handler (as the other
 * dashboard tests call it), with messages ingested for real: the simulator's signed webhook to our
 * endpoint, then the ingest job. Every wait is for an event that must come (the test's timeout bounds
 * it); absence is shown by an event of the stream's own project arriving after the other project's.
 */
let h: Harness;
let testers = 0;

beforeAll(async () => {
  h = await startHarness({ statusDelaysMs: { sent: 5, delivered: 10, read: 15 } });
});
afterAll(() => h.close());

interface StreamEvent {
  type: string;
  conversation_id: string;
  id?: string;
}

interface OpenStream {
  response: Response;
  events: StreamEvent[];
  comments: string[];
  /** The first event (from now on, or already received) matching `match`. */
  next(match: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Resolves when the body ends. */
  ended: Promise<void>;
  abort(): void;
}

/** Reads a Server-Sent Events body (a 200's) into events and comments as it arrives. */
function readStream(response: Response, controller: AbortController): OpenStream {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters: { match: (e: StreamEvent) => boolean; resolve: (e: StreamEvent) => void }[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const ended = (async () => {
    // An error answer is left for the test to read.
    if (!response.ok) return;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) !== -1) {
        const frame = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (frame.startsWith(":")) comments.push(frame.slice(1).trim());
        const data = /^event: inbox\ndata: (.*)$/.exec(frame);
        if (!data) continue;
        const event = JSON.parse(data[1]!) as StreamEvent;
        events.push(event);
        for (const w of waiters.filter((w) => w.match(event))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    }
  })();
  return {
    response,
    events,
    comments,
    ended,
    next: (match) => new Promise((resolve) => (events.find(match) ? resolve(events.find(match)!) : waiters.push({ match, resolve }))),
    abort: () => controller.abort(),
  };
}

async function openStream(projectId: string, as: Operator | null): Promise<OpenStream> {
  const controller = new AbortController();
  const headers = new Headers({ host: "svc.test" });
  if (as) headers.set("cookie", as.cookie);
  const url = new URL(`http://svc.test/api/dashboard/projects/${projectId}/inbox/stream`);
  const response = await handleDashboard(
    new Request(url, { headers, signal: controller.signal }),
    url.pathname.replace(/^\/api\/dashboard/, ""),
    h.app.runtime,
  );
  return readStream(response, controller);
}

interface Scene {
  project: Seeded;
  operator: Operator;
  tester: string;
}

async function scene(orgName: string): Promise<Scene> {
  const project = await h.app.seed({ orgName });
  const operator = await addOperator(h.app, project, "viewer");
  const tester = `+1555${String(Date.now()).slice(-5)}${String(++testers).padStart(2, "0")}`;
  return { project, operator, tester };
}

/** The scene's tester joins and writes `text`; answers the conversation's id and the message's. */
async function customerWrites({ project, tester }: Scene, text: string): Promise<{ conversationId: string; messageId: string }> {
  await h.join(project.projectId, tester, "Ana");
  await h.customer({ from: tester, type: "text", text });
  await h.settle(20);
  const list = await h.app.call("GET", "/conversations", { key: project.key });
  const conversationId = list.body.data[0].id as string;
  const thread = await h.app.call("GET", `/conversations/${conversationId}/messages`, { key: project.key });
  const message = thread.body.data.find((m: { text?: { body: string } | null; content?: string | null }) => JSON.stringify(m).includes(text));
  return { conversationId, messageId: message.id as string };
}

describe("GET /inbox/stream (dashboard)", () => {
  it("answers a signed-in operator with an event stream: headers, then a first comment at once", async () => {
    const { project, operator } = await scene("Headers");
    const stream = await openStream(project.projectId, operator);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("cache-control")).toContain("no-cache");
    expect(stream.response.headers.get("x-accel-buffering")).toBe("no");
    // The first line lets the browser's EventSource report the stream open; it is already queued.
    await new Promise<void>((resolve) => {
      const check = () => (stream.comments.includes("connected") ? resolve() : setImmediate(check));
      check();
    });
    stream.abort();
    await stream.ended;
  });

  it("refuses a signed-out request with 401 and another organization's operator with 404", async () => {
    const { project } = await scene("Private");
    const stranger = await scene("Stranger");
    const signedOut = await openStream(project.projectId, null);
    expect(signedOut.response.status).toBe(401);
    expect(await signedOut.response.json()).toMatchObject({ error: "unauthenticated" });
    const outsider = await openStream(project.projectId, stranger.operator);
    expect(outsider.response.status).toBe(404);
    expect(await outsider.response.json()).toMatchObject({ error: "not_found" });
  });

  it("delivers message.created when an inbound message is ingested for the operator's project", async () => {
    const current = await scene("Inbound");
    const stream = await openStream(current.project.projectId, current.operator);
    const { conversationId, messageId } = await customerWrites(current, "Hello, is anyone there?");
    const event = await stream.next((e) => e.type === "message.created" && e.id === messageId);
    expect(event).toEqual({ type: "message.created", conversation_id: conversationId, id: messageId });
    stream.abort();
    await stream.ended;
  });

  it("never delivers another project's events", async () => {
    const mine = await scene("Mine");
    const theirs = await scene("Theirs");
    const myStream = await openStream(mine.project.projectId, mine.operator);
    const theirStream = await openStream(theirs.project.projectId, theirs.operator);
    const their = await customerWrites(theirs, "Their message");
    await theirStream.next((e) => e.id === their.messageId);
    // Published after theirs: once mine has arrived, theirs would have too.
    const own = await customerWrites(mine, "My message");
    await myStream.next((e) => e.id === own.messageId);
    expect(myStream.events.every((e) => e.conversation_id === own.conversationId)).toBe(true);
    expect(myStream.events.some((e) => e.conversation_id === their.conversationId || e.id === their.messageId)).toBe(false);
    myStream.abort();
    theirStream.abort();
    await Promise.all([myStream.ended, theirStream.ended]);
  });

  it("delivers an operator's reply, its status ticks and a handoff change", async () => {
    const current = await scene("Reply");
    const dev = await addOperator(h.app, current.project, "developer");
    const { conversationId } = await customerWrites(current, "I need help");
    const stream = await openStream(current.project.projectId, current.operator);
    const base = `/projects/${current.project.projectId}`;
    const sent = await dash(h.app, "POST", `${base}/messages`, {
      as: dev,
      body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversationId, text: "On it" },
    });
    expect(sent.status).toBe(200);
    await stream.next((e) => e.type === "message.created" && e.id === sent.body.id);
    await h.settle(20);
    const tick = await stream.next((e) => e.type === "message.updated" && e.id === sent.body.id);
    expect(tick.conversation_id).toBe(conversationId);
    const handoff = await dash(h.app, "POST", `${base}/conversations/${conversationId}/handoff`, { as: dev, body: { enabled: true } });
    expect(handoff.status).toBe(200);
    expect(await stream.next((e) => e.type === "conversation.updated")).toEqual({ type: "conversation.updated", conversation_id: conversationId });
    stream.abort();
    await stream.ended;
  });

  it("delivers the team's own moves: an assignment, a note and a read", async () => {
    const current = await scene("Team");
    const dev = await addOperator(h.app, current.project, "developer");
    const { conversationId } = await customerWrites(current, "Who is looking at this?");
    const stream = await openStream(current.project.projectId, current.operator);
    const base = `/projects/${current.project.projectId}/conversations/${conversationId}`;
    const countOf = (type: string) => stream.events.filter((e) => e.type === type && e.conversation_id === conversationId).length;

    const assigned = await dash(h.app, "POST", `${base}/assignment`, { as: dev, body: { assignee_id: dev.userId, handoff: false } });
    expect(assigned.status).toBe(200);
    expect(await stream.next((e) => e.type === "conversation.updated")).toEqual({ type: "conversation.updated", conversation_id: conversationId });

    const note = await dash(h.app, "POST", `${base}/notes`, { as: dev, body: { body: "Taking this one" } });
    expect(note.status).toBe(200);
    expect(await stream.next((e) => e.type === "note.created")).toEqual({ type: "note.created", conversation_id: conversationId, id: note.body.id });

    const updatesBefore = countOf("conversation.updated");
    const read = await dash(h.app, "POST", `${base}/read`, { as: dev });
    expect(read.status).toBe(200);
    await new Promise<void>((resolve) => {
      const check = () => (countOf("conversation.updated") > updatesBefore ? resolve() : setTimeout(check, 5));
      check();
    });
    stream.abort();
    await stream.ended;
  });

  it("delivers message.updated once an inbound file is cached", async () => {
    const current = await scene("Media");
    await h.join(current.project.projectId, current.tester, "Ana");
    const stream = await openStream(current.project.projectId, current.operator);
    const upload = await fetch(`${h.server.url}/api/simulator/customer/media`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: new Uint8Array(Buffer.from("89504e470d0a1a0a0000000d49484452", "hex")),
    });
    const { id: mediaId } = (await upload.json()) as { id: string };
    await h.customer({ from: current.tester, type: "image", media: { id: mediaId, mime_type: "image/png", caption: "receipt" } });
    // The ingest job stores the message; the media job caches its file.
    await h.settle(20);
    const created = await stream.next((e) => e.type === "message.created");
    const updated = await stream.next((e) => e.type === "message.updated" && e.id === created.id);
    expect(updated.conversation_id).toBe(created.conversation_id);
    stream.abort();
    await stream.ended;
  });

  it("ends when the client aborts, and when the process starts draining", async () => {
    const { project, operator } = await scene("Ends");
    const aborted = await openStream(project.projectId, operator);
    aborted.abort();
    await aborted.ended;
    const drained = await openStream(project.projectId, operator);
    try {
      setDraining(true);
      await drained.ended;
      // While draining, a new stream is refused: the browser polls, then reconnects elsewhere.
      const refused = await openStream(project.projectId, operator);
      expect(refused.response.status).toBe(503);
      expect(refused.response.headers.get("retry-after")).toBe("5");
      expect(await refused.response.json()).toMatchObject({ error: "live_updates_unavailable" });
    } finally {
      setDraining(false);
    }
  });
});

describe("the inbox stream body", () => {
  it("sends a `: ping` comment on its interval", async () => {
    const { project } = await scene("Pings");
    const controller = new AbortController();
    const request = new Request("http://svc.test/", { signal: controller.signal });
    const body = await openInboxStream({ bus: h.app.runtime.ports.bus, metrics: null, projectId: project.projectId, request, pingMs: 5 });
    const stream = readStream(new Response(body), controller);
    await new Promise<void>((resolve) => {
      const check = () => (stream.comments.includes("ping") ? resolve() : setTimeout(check, 5));
      check();
    });
    controller.abort();
    await stream.ended;
  });
});
