/**
 * @svc/sdk against a real HTTP server of the app (tests/support/http-server.ts): sends, pagination
 * over several pages, the idempotency key kept across a retry (the server replays), no retry on a
 * 400, typed errors, and the example script run as a user would run it.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSvcClient, listAll, paginate, SvcApiError, unwrap, type SvcClient } from "@svc/sdk";
import { SANDBOX_CHANNEL_ID } from "@/lib/domain/channels/sandbox";
import type { Seeded } from "../support/app";
import { startHarness, type Harness } from "../messages/support";
import { joinCodeOf, joinTesters, testerNumber } from "../messages/send-support";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let h: Harness;
let acme: Seeded;
/** One joined tester per send below: the sandbox paces new messages per recipient (one per 6 s). */
const ROLES = ["first", "callerKey", "bodyKey", "lost", "example"] as const;
let testers: Record<(typeof ROLES)[number], string>;
let conversations: Record<(typeof ROLES)[number], string>;

/** Every request the client sent (method, path and query, Idempotency-Key) and what the server answered. */
interface Seen {
  method: string;
  url: string;
  key: string | null;
  status: number | null;
  replayed: string | null;
}

function client(options: { fetch?: typeof fetch; seen?: Seen[]; sleeps?: number[]; maxRetries?: number } = {}): SvcClient {
  const inner = options.fetch ?? fetch;
  return createSvcClient({
    apiKey: acme.key,
    baseUrl: `${h.server.url}/api/v1`,
    maxRetries: options.maxRetries ?? 2,
    retry: { sleep: async (ms) => void options.sleeps?.push(ms) },
    fetch: async (input, init) => {
      const request = input as Request;
      const entry: Seen = { method: request.method, url: request.url, key: request.headers.get("Idempotency-Key"), status: null, replayed: null };
      options.seen?.push(entry);
      const response = await inner(request, init);
      entry.status = response.status;
      entry.replayed = response.headers.get("Idempotent-Replayed");
      return response;
    },
  });
}

beforeAll(async () => {
  h = await startHarness();
  acme = await h.app.seed();
  testers = Object.fromEntries(ROLES.map((role) => [role, testerNumber()])) as typeof testers;
  const joined = await joinTesters(h, acme.key, await joinCodeOf(h, acme.projectId), Object.values(testers));
  conversations = Object.fromEntries(ROLES.map((role) => [role, joined.conversations[testers[role]]!])) as typeof conversations;
});
afterAll(() => h?.close());

describe("@svc/sdk over HTTP", () => {
  it("sends a text message with a generated Idempotency-Key and reads it back", async () => {
    const seen: Seen[] = [];
    const sdk = client({ seen });
    const message = await unwrap(
      sdk.POST("/messages", { body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations.first, text: "Hi from the SDK" } }),
    );
    expect(message).toMatchObject({ object: "message", status: "queued", conversation_id: conversations.first });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.key).toMatch(UUID);
    expect(message.idempotency_key).toBe(seen[0]!.key);

    const read = await unwrap(sdk.GET("/messages/{id}", { params: { path: { id: message.id } } }));
    expect(read).toMatchObject({ id: message.id, type: "text", content: "Hi from the SDK" });
  });

  it("keeps the caller's Idempotency-Key and copies a body idempotency_key to the header", async () => {
    const seen: Seen[] = [];
    const sdk = client({ seen });
    const own = await unwrap(
      sdk.POST("/messages", {
        body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations.callerKey, text: "keyed" },
        headers: { "Idempotency-Key": "caller-key-1" },
      }),
    );
    expect(own.idempotency_key).toBe("caller-key-1");
    const inBody = await unwrap(
      sdk.POST("/messages", {
        body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations.bodyKey, text: "body keyed", idempotency_key: "body-key-1" },
      }),
    );
    expect(inBody.idempotency_key).toBe("body-key-1");
    expect(seen.map((s) => s.key)).toEqual(["caller-key-1", "body-key-1"]);
  });

  it("a POST whose answer is lost is retried with the same key; the server replays it, one message exists", async () => {
    const seen: Seen[] = [];
    const sleeps: number[] = [];
    let lost = false;
    const lossy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!lost) {
        lost = true;
        await response.arrayBuffer();
        throw new TypeError("fetch failed: the connection dropped before the answer arrived");
      }
      return response;
    };
    const sdk = client({ fetch: lossy, seen, sleeps });
    const text = `lost answer ${Date.now()}`;
    const { data, response } = await sdk.POST("/messages", { body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations.lost, text } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Idempotent-Replayed")).toBe("true");
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(UUID);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(sleeps).toHaveLength(1);

    const all = await listAll(client(), "/conversations/{id}/messages", { params: { path: { id: conversations.lost }, query: { limit: 100 } } });
    expect(all.filter((m) => m.content === text).map((m) => m.id)).toEqual([data!.id]);
  });

  it("a 400 is not retried and comes back as a typed SvcApiError with issues and the request id", async () => {
    const seen: Seen[] = [];
    const sleeps: number[] = [];
    const sdk = client({ seen, sleeps });
    // Valid for the types (text is a string) but over the API's 4096-character limit.
    const result = sdk.POST("/messages", { body: { channel_id: SANDBOX_CHANNEL_ID, conversation_id: conversations.first, text: "x".repeat(5000) } });
    const error = await unwrap(result).catch((e: unknown) => e);
    expect(SvcApiError.is(error)).toBe(true);
    const apiError = error as SvcApiError;
    expect(apiError).toMatchObject({ status: 400, code: "invalid_request" });
    expect(apiError.issues?.text?.length).toBeGreaterThan(0);
    expect(apiError.requestId).toBe(apiError.response.headers.get("Request-Id"));
    expect(apiError.requestId).toBeTruthy();
    expect(seen).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("paginate follows starting_after across pages until has_more is false", async () => {
    const sdk = client();
    const phones: string[] = [];
    for (let i = 0; i < 5; i++) {
      const phone = `+${testerNumber()}`;
      phones.push(phone);
      await unwrap(sdk.POST("/contacts", { body: { phone } }));
    }
    const seen: Seen[] = [];
    const paged = client({ seen });
    const contacts = await listAll(paged, "/contacts", { params: { query: { limit: 2 } } });
    const ids = contacts.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const phone of phones) expect(contacts.some((c) => c.phone === phone)).toBe(true);
    // 5 created + the 5 joined testers: 10 contacts, pages of 2, the fifth says has_more: false.
    expect(contacts).toHaveLength(10);
    expect(seen.map((s) => new URL(s.url).searchParams.get("starting_after"))).toEqual([null, ids[1], ids[3], ids[5], ids[7]]);
    expect(seen.every((s) => new URL(s.url).searchParams.get("limit") === "2")).toBe(true);

    // The iterator stops where the caller stops: one page asked for.
    const first: string[] = [];
    const oneSeen: Seen[] = [];
    for await (const contact of paginate(client({ seen: oneSeen }), "/contacts", { params: { query: { limit: 2 } } })) {
      first.push(contact.id);
      if (first.length === 2) break;
    }
    expect(first).toEqual(ids.slice(0, 2));
    expect(oneSeen).toHaveLength(1);
  });

  it("paginate throws SvcApiError for an error page", async () => {
    const sdk = createSvcClient({ apiKey: "svc_live_wrong", baseUrl: `${h.server.url}/api/v1` });
    const error = await listAll(sdk, "/contacts").catch((e: unknown) => e);
    expect(SvcApiError.is(error) && error.status === 401 && error.code === "invalid_api_key").toBe(true);
  });

  it("the example script sends a message and prints its id and status", async () => {
    const root = path.resolve(import.meta.dirname, "..", "..");
    const { stdout, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "examples/sdk-send-message.ts"],
        {
          cwd: root,
          env: { ...process.env, SVC_API_KEY: acme.key, SVC_API_URL: `${h.server.url}/api/v1`, TO: `+${testers.example}`, TEXT: "from the example" },
          timeout: 60_000,
        },
        (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? ((error as { code?: number }).code ?? 1) : 0 }),
      );
    });
    expect(code).toBe(0);
    const match = /^message (msg_\S+) queued \(conversation (\S+), idempotency key (\S+)\)$/m.exec(stdout);
    expect(match, stdout).not.toBeNull();
    expect(match![2]).toBe(conversations.example);
    expect(match![3]).toMatch(UUID);
    const sent = await unwrap(client().GET("/messages/{id}", { params: { path: { id: match![1]! } } }));
    expect(sent).toMatchObject({ content: "from the example", conversation_id: conversations.example });
  }, 90_000);
});
