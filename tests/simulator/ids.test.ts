import { describe, expect, it } from "vitest";
import { conversationId, fbtraceId, messengerMid, wamid } from "@/lib/simulator/ids";

/**
 * The simulator's provider-shaped ids draw their random part from a buffer refilled 4 KiB at a time:
 * across many refills no two ids repeat, and each keeps the shape the service sees from the provider.
 */
describe("simulator ids", () => {
  it("never repeats across many refills of the random buffer", () => {
    const seen = new Set<string>();
    // 16 bytes each: 20,000 of them span about 80 refills of the 4 KiB buffer.
    for (let i = 0; i < 20_000; i++) seen.add(conversationId());
    expect(seen.size).toBe(20_000);
    const mids = new Set(Array.from({ length: 5_000 }, () => wamid("+15551234567")));
    expect(mids.size).toBe(5_000);
  });

  it("keeps each id's shape", () => {
    expect(conversationId()).toMatch(/^[0-9a-f]{32}$/);
    expect(fbtraceId()).toMatch(/^[A-Za-z0-9_-]{23}$/);
    expect(messengerMid()).toMatch(/^m_[A-Za-z0-9_-]{60}$/);
    const id = wamid("+15551234567");
    expect(id.startsWith("wamid.HBg")).toBe(true);
    expect(Buffer.from(id.slice("wamid.".length), "base64").includes(Buffer.from("15551234567"))).toBe(true);
  });
});
