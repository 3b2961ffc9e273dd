import type { HostReply, HostRequest } from "./protocol";
import type { HostBridge } from "./types";

/**
 * A function's fetch or env.KV call, made by the caller's HostBridge on the main thread: the SSRF guard,
 * the database and their limits stay in svc's own code. A failure becomes a rejected promise inside the
 * function carrying the error's message.
 */
export async function serveHostRequest(bridge: HostBridge | null, request: HostRequest): Promise<HostReply> {
  if (!bridge) return { ok: false, message: `${request.op} is not available here` };
  try {
    return { ok: true, value: await callBridge(bridge, request) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

async function callBridge(bridge: HostBridge, request: HostRequest): Promise<unknown> {
  if (request.op === "fetch") return bridge.fetch(request.request);
  switch (request.action) {
    case "get":
      return bridge.kv.get(request.key);
    case "put":
      return bridge.kv.put(request.key, request.value);
    case "delete":
      return bridge.kv.delete(request.key);
    case "list":
      return bridge.kv.list(request.options);
  }
}
