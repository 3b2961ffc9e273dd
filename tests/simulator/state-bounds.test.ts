import { describe, expect, it } from "vitest";
import { MAX_CONVERSATIONS, MAX_WINDOWS, PAIR_PACING_MS, SimulatorState, TRIM_STEP, type BusinessMessage } from "@/lib/simulator/state";

/**
 * A simulator that runs for days (npm run simulator, the benchmark's 200,000 sends) keeps per-pair
 * memory bounded: pacing entries past 6 s are swept (they decide nothing), open conversations are
 * kept for the most recent pairs. Pacing and a recent pair's conversation id behave as before.
 */
function message(to: string, i: number): BusinessMessage {
  return {
    id: `wamid.${i}`,
    platform: "PLATFORM_A",
    sender_id: "pn-1",
    to,
    type: "template",
    body: {},
    sent_at: new Date(0).toISOString(),
    status: "accepted",
  } as BusinessMessage;
}

describe("SimulatorState per-pair memory", () => {
  it("sweeps pacing entries older than 6 s, and still paces a pair written to within them", () => {
    const state = new SimulatorState();
    const start = Date.UTC(2026, 10, 28);
    for (let i = 0; i < 60_000; i++) state.recordBusinessMessage(message(`1555${String(i).padStart(7, "0")}`, i), new Date(start + i)); // 1,000 a second
    const recent = "15550059999";
    expect(state.paced("pn-1", recent, new Date(start + 60_000))).toBe(true);
    expect(state.paced("pn-1", "15550000000", new Date(start + 60_000))).toBe(false);
    // 60,000 customers, of which about 6,000 inside their 6 s: the map holds tens of thousands at most.
    expect(state.trackedPairs().pacing).toBeLessThanOrEqual(20_001);
    expect(state.paced("pn-1", recent, new Date(start + 59_999 + PAIR_PACING_MS))).toBe(false);
  });

  it("keeps the most recent pairs' conversations, each with a stable id", () => {
    const state = new SimulatorState();
    const at = new Date(Date.UTC(2026, 10, 28));
    const first = state.conversation("pn-1", "15551000000", at).id;
    expect(state.conversation("pn-1", "15551000000", at).id).toBe(first);
    // Up to TRIM_STEP past the bound the map keeps everything; the next pair brings it back to the bound.
    for (let i = 1; i < MAX_CONVERSATIONS + TRIM_STEP; i++) state.conversation("pn-1", `1555${String(2_000_000 + i)}`, at);
    expect(state.trackedPairs().conversations).toBe(MAX_CONVERSATIONS + TRIM_STEP);
    expect(state.conversation("pn-1", "15551000000", at).id).toBe(first);
    const total = MAX_CONVERSATIONS + TRIM_STEP + 10;
    for (let i = MAX_CONVERSATIONS + TRIM_STEP; i <= total; i++) state.conversation("pn-1", `1555${String(2_000_000 + i)}`, at);
    // The first of these 11 went past the bound and its step: back to the bound, then 10 more.
    expect(state.trackedPairs().conversations).toBe(MAX_CONVERSATIONS + 10);
    const last = `1555${String(2_000_000 + total)}`;
    expect(state.conversation("pn-1", last, at).id).toBe(state.conversation("pn-1", last, at).id);
    // The oldest pair was let go: it opens a new conversation, as after 24 h.
    expect(state.conversation("pn-1", "15551000000", at).id).not.toBe(first);
  });

  it("keeps the most recent customers' windows only (what a restart reloads is bounded too)", () => {
    const state = new SimulatorState();
    const at = new Date(Date.UTC(2026, 10, 29));
    const last = MAX_WINDOWS + TRIM_STEP;
    for (let i = 0; i <= last; i++) state.recordCustomerMessage("pn-1", `1555${String(i).padStart(7, "0")}`, at);
    // One past the bound and its step: the oldest go, down to the bound.
    expect(state.openWindows(at)).toHaveLength(MAX_WINDOWS);
    expect(state.withinWindow("pn-1", "15550000000", at)).toBe(false);
    expect(state.withinWindow("pn-1", `1555${String(last - MAX_WINDOWS).padStart(7, "0")}`, at)).toBe(false);
    expect(state.withinWindow("pn-1", `1555${String(last - MAX_WINDOWS + 1).padStart(7, "0")}`, at)).toBe(true);
    expect(state.withinWindow("pn-1", `1555${String(last).padStart(7, "0")}`, at)).toBe(true);
  });
});
