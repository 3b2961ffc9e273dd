import { describe, expect, it } from "vitest";
import { drainRefused, readBodyBytes } from "@/lib/api/request-input";

/** A body of `chunks` × 64 KiB that records how much of it the server pulled and whether it was cancelled. */
function trackedBody(chunks: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(64 * 1024));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://localhost/api/v1/messages", { method: "POST", body, headers, duplex: "half" } as RequestInit);

// Next.js closes the socket after the response; unread bytes there make TCP reset the connection, which
// can destroy the 413 before a client still sending reads it (the fault suite's 20 MB row showed it).
describe("a refused body is read to its end before the 413 (lingering close)", () => {
  it("declared over the cap: refused without keeping anything, after the whole body was read", async () => {
    const { stream, seen } = trackedBody(32);
    await expect(readBodyBytes(post(stream, { "content-length": String(32 * 64 * 1024) }), 1024)).rejects.toMatchObject({ code: "payload_too_large" });
    expect(seen).toEqual({ pulled: 32, cancelled: false });
  });

  it("undeclared and over the cap mid-stream: the rest is read too", async () => {
    const { stream, seen } = trackedBody(32);
    await expect(readBodyBytes(post(stream), 100 * 1024)).rejects.toMatchObject({ code: "payload_too_large", details: { max_bytes: 100 * 1024 } });
    expect(seen.pulled).toBe(32);
  });

  it("stops reading past its bounds and lets go of the body", async () => {
    const { stream, seen } = trackedBody(1000);
    const drained = await drainRefused(stream.getReader(), { maxBytes: 10 * 64 * 1024, maxMs: 10_000 });
    expect(drained).toBe(11 * 64 * 1024);
    expect(seen).toEqual({ pulled: 11, cancelled: true });
  });
});
