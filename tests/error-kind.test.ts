import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

const ROOT = path.resolve(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** A second, separate copy of a module, as a production build with the module in two chunks has. */
async function secondCopy<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe("errors that cross a module copy boundary", () => {
  it("a limiter outage thrown by another copy of the limiter module is still the spec's 503, not a 500", async () => {
    const { takePairSlot } = await import("@/lib/domain/messages/pacing");
    const { errorResponse } = await import("@/lib/api/respond");
    const own = await import("@/lib/ports/limiter");
    const other = await secondCopy(() => import("@/lib/ports/limiter"));
    expect(other.LimiterUnavailable).not.toBe(own.LimiterUnavailable);

    const limiter = {
      backend: "redis" as const,
      hit: async () => {
        throw new other.LimiterUnavailable(new Error("connect ECONNREFUSED 127.0.0.1:6379"));
      },
      hitMany: async () => [],
      refund: async () => {},
      close: async () => {},
    };
    const thrown = await takePairSlot(limiter, { id: "ch_x", platform: "PLATFORM_A" }, "15550001111").catch((e: unknown) => e);
    const res = errorResponse(thrown, "req_1", {});
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toMatchObject({ error: "message_rate_limit_unavailable", queued: false, retryable: true, retry_after: 1 });
  });

  it("an SvcError from another copy of lib/errors keeps its status in the one error response", async () => {
    const { errorResponse } = await import("@/lib/api/respond");
    const other = await secondCopy(() => import("@/lib/errors"));
    const res = errorResponse(new other.SvcError("not_found", "No message with id 'msg_1'."), "req_2", {});
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found", message: "No message with id 'msg_1'." });
  });

  it("every branded kind recognises the other copy's instances and nothing else", async () => {
    const own = await import("@/lib/ports/storage/local");
    const other = await secondCopy(() => import("@/lib/ports/storage/local"));
    const range = new other.StorageRangeError(10, { start: 999999 });
    expect(own.StorageRangeError.is(range)).toBe(true);
    expect(own.InvalidStorageKey.is(range)).toBe(false);
    expect(own.StorageRangeError.is(new Error("plain"))).toBe(false);
    expect(own.StorageRangeError.is(null)).toBe(false);
    expect(own.StorageRangeError.is({ message: "look-alike" })).toBe(false);
  });
});

describe("the rule: own error classes are branded and never tested with instanceof", () => {
  const files = ["lib", "app", "components", "cli"].flatMap(sourceFiles);
  const branded = new Set<string>();
  for (const file of files) {
    for (const m of fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(/class (\w+) extends errorKind\(/g)) branded.add(m[1]!);
  }

  it("finds the branded classes", () => {
    for (const name of ["SvcError", "LimiterUnavailable", "StorageRangeError", "SsrfError", "ProviderError", "MediaFetchError"])
      expect(branded).toContain(name);
  });

  it("no class in lib/ extends Error directly (it would be recognised by instanceof only)", () => {
    const plain = files.filter(
      (f) => f.startsWith("lib") && f !== path.join("lib", "error-kind.ts") && /class \w+ extends Error\b/.test(fs.readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(plain).toEqual([]);
  });

  it("no source file uses instanceof on a branded class", () => {
    const offenders: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/instanceof\s+(\w+)/g)) if (branded.has(m[1]!)) offenders.push(`${file}: instanceof ${m[1]}`);
    }
    expect(offenders).toEqual([]);
  });
});
