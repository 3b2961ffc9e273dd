import http from "node:http";
import type { AddressInfo } from "node:net";
import type { BridgeFetchRequest, BridgeFetchResponse, HostBridge, SandboxRunRequest } from "@/lib/ports/sandbox/types";

/**
 * What the sandbox tests hand the port as its HostBridge. The SSRF guard and the database-backed KV are
 * the caller's (lib/domain/functions) and are tested there; here the bridge is a real round trip to a
 * local HTTP server for fetch, and an in-memory KV that records every call.
 */

export interface RecordingBridge extends HostBridge {
  fetches: BridgeFetchRequest[];
  kvCalls: string[];
  store: Map<string, string>;
}

/** fetch answered by `answer` (no network), KV kept in memory; every call is recorded. */
export function recordingBridge(answer?: (request: BridgeFetchRequest) => BridgeFetchResponse): RecordingBridge {
  const store = new Map<string, string>();
  const bridge: RecordingBridge = {
    fetches: [],
    kvCalls: [],
    store,
    async fetch(request) {
      bridge.fetches.push(request);
      if (!answer) throw new Error("fetch is not set up in this test");
      return answer(request);
    },
    kv: {
      async get(key) {
        bridge.kvCalls.push(`get ${key}`);
        return store.get(key) ?? null;
      },
      async put(key, value) {
        bridge.kvCalls.push(`put ${key}`);
        store.set(key, value);
      },
      async delete(key) {
        bridge.kvCalls.push(`delete ${key}`);
        store.delete(key);
      },
      async list(options) {
        bridge.kvCalls.push(`list ${options.prefix ?? ""}`);
        const names = [...store.keys()].filter((name) => name.startsWith(options.prefix ?? "")).sort();
        return { keys: names.map((name) => ({ name })), list_complete: true, cursor: null };
      },
    },
  };
  return bridge;
}

/** A bridge whose fetch really goes over HTTP (Node's fetch), as the caller's guarded client would. */
export function httpBridge(): RecordingBridge {
  const bridge = recordingBridge();
  bridge.fetch = async (request) => {
    bridge.fetches.push(request);
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body_base64 === null ? undefined : Buffer.from(request.body_base64, "base64"),
      redirect: "manual",
    });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      status_text: response.statusText,
      headers: [...response.headers.entries()],
      body_base64: body.toString("base64"),
      url: request.url,
    };
  };
  return bridge;
}

export interface EchoServer {
  url: string;
  close(): Promise<void>;
}

/** Answers every request with JSON describing it (method, path, a header, the body). */
export async function startEchoServer(): Promise<EchoServer> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    res.writeHead(201, { "content-type": "application/json", "x-echo": "yes" });
    res.end(JSON.stringify({ method: req.method, path: req.url, token: req.headers["x-token"] ?? null, body }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A PLAIN run request for `code` with an event, no secrets. */
export function plain(code: string, extra: Partial<SandboxRunRequest> = {}): SandboxRunRequest {
  return { code, runtime: "PLAIN", event: { text: "hi" }, env: {}, context: { invocation_id: "inv_test" }, ...extra };
}

/** Lower limits than production where they only make a test wait (memory stays at the real cap). */
export const FAST_LIMITS = { cpuMs: 500, wallMs: 1_500 };
