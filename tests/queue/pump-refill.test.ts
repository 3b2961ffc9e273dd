import { describe, expect, it } from "vitest";
import type { Job } from "pg-boss";
import { QueuePump, type PumpSource } from "@/lib/ports/queue/pump";

/**
 * When a freed slot fetches (lib/ports/queue/pump.ts mayBeWaiting): only while a job may be waiting,
 * i.e. a NOTIFY came or the last fetch came back full. A busy worker fetched once more after every job
 * it finished, and most of those fetches found nothing.
 */
class Source implements PumpSource {
  readonly waiting: Job<object>[] = [];
  fetches = 0;
  /** Fetches that found nothing. */
  empty = 0;
  completed = 0;
  async fetch(batchSize: number) {
    this.fetches++;
    const jobs = this.waiting.splice(0, batchSize);
    if (jobs.length === 0) this.empty++;
    return jobs;
  }
  async complete(jobs: Job<object>[]) {
    this.completed += jobs.length;
  }
  async fail() {}
  add(count: number) {
    for (let i = 0; i < count; i++) this.waiting.push({ id: `job-${this.waiting.length}-${i}`, name: "q", data: {} } as Job<object>);
  }
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return check();
}

function pumpOn(source: Source, options: { capacity: number; grouped?: boolean }) {
  let ran = 0;
  const pump = new QueuePump(source, {
    capacity: options.capacity,
    grouped: options.grouped ?? false,
    // Long enough that no poll happens within a test: every fetch below is a wake's or a freed slot's.
    pollMs: 60_000,
    run: async () => {
      ran++;
      await new Promise((r) => setTimeout(r, 5));
    },
    onError: (error) => {
      throw error;
    },
  });
  return { pump, ran: () => ran };
}

describe("a queue worker's freed slot", () => {
  it("does not fetch when the last fetch found every job that was waiting and no NOTIFY came since", async () => {
    const source = new Source();
    const { pump, ran } = pumpOn(source, { capacity: 4 });
    pump.start();
    expect(await until(() => source.fetches === 1)).toBe(true);
    source.add(1);
    pump.wake();
    expect(await until(() => source.completed === 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    // The start's fetch and the NOTIFY's: none after the job finished.
    expect(source.fetches).toBe(2);
    expect(source.empty).toBe(1);
    expect(ran()).toBe(1);
    await pump.stop(1_000);
  });

  it("fetches again while the last fetch came back full, until the backlog is run", async () => {
    const source = new Source();
    source.add(10);
    const { pump, ran } = pumpOn(source, { capacity: 4 });
    pump.start();
    expect(await until(() => source.completed === 10)).toBe(true);
    expect(ran()).toBe(10);
    // At most one fetch found nothing (one that asked for more than the backlog's last jobs came back
    // short, and no slot fetched after it).
    expect(source.empty).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 50));
    const settled = source.fetches;
    await new Promise((r) => setTimeout(r, 50));
    expect(source.fetches).toBe(settled);
    await pump.stop(1_000);
  });

  it("of a queue with a group cap fetches after every job (a job passed over for its group's cap gets no NOTIFY)", async () => {
    const source = new Source();
    const { pump } = pumpOn(source, { capacity: 4, grouped: true });
    pump.start();
    expect(await until(() => source.fetches === 1)).toBe(true);
    source.add(1);
    pump.wake();
    expect(await until(() => source.completed === 1)).toBe(true);
    expect(await until(() => source.fetches === 3)).toBe(true);
    await pump.stop(1_000);
  });
});
