import { describe, expect, it } from "vitest";
import { normalizeWebhook } from "@/lib/domain/ingest/normalize";
import { normalizeMessengerWebhook } from "@/lib/domain/ingest/normalize-messenger";
import { normalizePlatformAWebhook } from "@/lib/domain/ingest/normalize-platform-a";
import type { ProviderPlatform } from "@/lib/ports/provider/types";
import { fixture, fixtureNames } from "./support";

/** Fixtures that are expected to normalize to nothing (non-message fields, non-customer messages). */
const EMPTY = new Set(["platform-a-app-state-sync", "platform-a-request-welcome"]);

function platformOf(name: string): ProviderPlatform {
  if (name.startsWith("platform-a-")) return "PLATFORM_A";
  if (name.startsWith("instagram-")) return "PLATFORM_B";
  if (name.startsWith("messenger-")) return "PLATFORM_C";
  throw new Error(`fixture ${name}: unknown platform prefix`);
}

describe("normalizeWebhook", () => {
  it("dispatches PLATFORM_A to the Cloud API normalizer", () => {
    const payload = fixture("platform-a-text");
    const events = normalizeWebhook("PLATFORM_A", payload);
    expect(events).toStrictEqual(normalizePlatformAWebhook(payload));
    expect(events).toHaveLength(1);
  });

  it.each([
    ["PLATFORM_B", "instagram-text"],
    ["PLATFORM_C", "messenger-text"],
  ] as const)("dispatches %s to the messaging normalizer with its platform", (platform, name) => {
    const payload = fixture(name);
    const events = normalizeWebhook(platform, payload);
    expect(events).toStrictEqual(normalizeMessengerWebhook(platform, payload));
    expect(events.map((e) => e.platform)).toStrictEqual([platform]);
  });

  it("a payload of another platform normalizes to nothing", () => {
    expect(normalizeWebhook("PLATFORM_A", fixture("messenger-text"))).toStrictEqual([]);
    expect(normalizeWebhook("PLATFORM_B", fixture("platform-a-text"))).toStrictEqual([]);
    expect(normalizeWebhook("PLATFORM_C", fixture("platform-a-status-sent"))).toStrictEqual([]);
  });

  it.each(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const)("garbage → [] on %s", (platform) => {
    for (const garbage of [undefined, null, "", "null", 0, true, [], {}, { object: 1 }, { entry: [[]] }, new Date(0)]) {
      expect(normalizeWebhook(platform, garbage)).toStrictEqual([]);
    }
  });

  it("every fixture normalizes, with its own platform on every event", () => {
    for (const name of fixtureNames()) {
      const platform = platformOf(name);
      const events = normalizeWebhook(platform, fixture(name));
      expect(events.length > 0, name).toBe(!EMPTY.has(name));
      for (const e of events) expect(e.platform, name).toBe(platform);
    }
  });

  it("never throws on mutated fixtures (values swapped for wrong types, keys dropped)", () => {
    const random = seeded(20250608);
    const weird: unknown[] = [null, 0, -1, "", "x", [], {}, true, 1e21, "99999999999999999999", [null], { id: {} }];
    for (const name of fixtureNames()) {
      const platform = platformOf(name);
      const original = fixture(name);
      for (let round = 0; round < 25; round++) {
        const mutated = mutate(structuredClone(original), random, weird);
        const events = normalizeWebhook(platform, mutated);
        expect(Array.isArray(events)).toBe(true);
        for (const e of events) {
          expect(["message", "echo", "status", "call", "identity_change"]).toContain(e.kind);
          expect(() => JSON.stringify(e)).not.toThrow();
        }
      }
    }
  });
});

/** Replaces or drops roughly one node in eight, anywhere in the tree. */
function mutate(value: unknown, random: () => number, weird: unknown[]): unknown {
  if (Array.isArray(value)) return value.map((v) => mutate(v, random, weird));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const roll = random();
    if (roll < 0.06) continue;
    out[key] = roll < 0.12 ? weird[Math.floor(random() * weird.length)] : mutate(v, random, weird);
  }
  return out;
}

/** Deterministic PRNG (mulberry32) so a failure reproduces. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
