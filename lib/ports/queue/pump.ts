import type { Job } from "pg-boss";
import { jobFailureMessage } from "./failure";

/**
 * Keeps up to `capacity` jobs of one queue running in this process, each settled on its own.
 *
 * pg-boss's own work() loop runs a fetched batch to its slowest job and, unless the batch came back
 * full, sleeps its poll interval (0.5 s at least) before the next fetch. With a per-project cap
 * (groupConcurrency) a fetch is rarely full, so a busy queue ran at a few jobs per poll, and one slow
 * job held every job fetched beside it. The pump uses pg-boss's own primitives (fetch with the group
 * cap, complete and fail fenced to the fetched attempt, expiry and retries by its supervisor) and only
 * replaces that loop: a freed slot is refilled as soon as its completion is recorded, completions are
 * written in batches, and a NOTIFY or the poll timer wakes an idle pump.
 */
export interface PumpSource {
  fetch(batchSize: number): Promise<Job<object>[]>;
  complete(jobs: Job<object>[]): Promise<void>;
  fail(job: Job<object>, message: string): Promise<void>;
}

export interface PumpOptions {
  capacity: number;
  /**
   * The queue caps each group (groupConcurrency): a job the last fetch passed over for its group's cap
   * may be due once a slot frees, with no NOTIFY to say so, so every freed slot fetches.
   */
  grouped?: boolean;
  /** Backstop poll while idle (a missed NOTIFY, jobs whose start_after arrived). */
  pollMs: number;
  run(job: Job<object>): Promise<void>;
  onError(error: unknown): void;
}

/**
 * A completion or failure that cannot be written (the database is restarting) is tried again for
 * about 8 s: a job left active only runs again after its expiry and the supervisor's next pass, which
 * made a message received during a short outage arrive two minutes late (the fault suite's scenario 2).
 */
const SETTLE_RETRY_DELAYS_MS = [250, 500, 1000, 2000, 2000, 2000];

export async function settleWithRetries(write: () => Promise<void>, delays: readonly number[] = SETTLE_RETRY_DELAYS_MS): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= delays.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/** Shortest time between two fetches of a pump whose last fetch left it waiting (see run()). */
const FETCH_GAP_MS = 20;

export class QueuePump {
  private inFlight = 0;
  /** The jobs running now: what a shutdown gives back when they outlast its grace. */
  private readonly running = new Set<Job<object>>();
  private stopping = false;
  private woken = false;
  /**
   * A job may be waiting for this pump: a NOTIFY came (or the pump just started) since the last fetch
   * that came back with fewer jobs than it asked for. A freed slot fetches only then: after each job
   * a fetch found nothing (most of a busy worker's fetches, README "Performance").
   */
  private mayBeWaiting = true;
  private wakeSleeper: (() => void) | null = null;
  private finished: Job<object>[] = [];
  private flushing: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  constructor(
    private readonly source: PumpSource,
    private readonly options: PumpOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /**
   * A slot for a job this process is writing already taken (job-insert.ts runHere), or false when
   * every slot is busy or the pump is stopping. Held until runReserved or release.
   */
  reserve(): boolean {
    if (this.stopping || this.inFlight >= this.options.capacity) return false;
    this.inFlight++;
    return true;
  }

  /** The reserved slot's job committed: it runs and settles as a fetched job does. */
  runReserved(job: Job<object>): void {
    this.execute(job, true);
  }

  /** The reserved slot's job was not written. */
  release(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.drained?.();
    this.slotFreed();
  }

  /** Something may be waiting (a NOTIFY for this queue, the listener reconnected): fetch now. */
  wake(): void {
    this.mayBeWaiting = true;
    this.rouse();
  }

  private rouse(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /** A slot came free: fetch if a job may be waiting for it (see mayBeWaiting); the poll finds the rest. */
  private slotFreed(): void {
    if (this.mayBeWaiting || this.options.grouped) this.rouse();
  }

  /**
   * Stops fetching, lets the jobs in flight finish (up to `graceMs`) and records their results.
   * Returns the jobs still running then (the caller gives them back to the queue).
   */
  async stop(graceMs: number): Promise<Job<object>[]> {
    this.stopping = true;
    this.wake();
    await this.loop;
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => (this.drained = resolve)), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)).unref())]);
      clearTimeout(timer);
    }
    await this.flush();
    return [...this.running];
  }

  private async run(): Promise<void> {
    const { capacity } = this.options;
    // Each fetch costs the database about a millisecond whatever it returns, so a busy pump fetches
    // for a quarter of its slots at a time and at most every FETCH_GAP_MS, unless the last fetch came
    // back full (more is waiting) or nothing is running (a lone job goes at once).
    const threshold = Math.max(1, Math.floor(capacity / 4));
    let lastFetchAt = 0;
    let lastFull = false;
    while (!this.stopping) {
      this.woken = false;
      let full = false;
      if (capacity - this.inFlight >= threshold || (this.inFlight === 0 && capacity > 0)) {
        const gap = lastFull || this.inFlight === 0 ? 0 : FETCH_GAP_MS - (Date.now() - lastFetchAt);
        if (gap > 0) await new Promise((resolve) => setTimeout(resolve, gap));
        if (this.stopping) break;
        const free = capacity - this.inFlight;
        try {
          lastFetchAt = Date.now();
          // Cleared before the fetch: a NOTIFY that arrives while it runs sets it again.
          this.mayBeWaiting = false;
          const jobs = await this.source.fetch(free);
          for (const job of jobs) this.execute(job);
          full = jobs.length === free;
          if (full) this.mayBeWaiting = true;
        } catch (error) {
          this.mayBeWaiting = true;
          this.options.onError(error);
        }
        lastFull = full;
      }
      // A full fetch means more is likely waiting: go again once enough slots are free (completions wake us).
      if (full && capacity - this.inFlight >= threshold) continue;
      if (!this.woken && !this.stopping) await this.sleep(this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleeper = () => {
        this.wakeSleeper = null;
        done();
      };
    });
  }

  /**
   * Runs the job beside the fetch loop, so its promise is not awaited (`void`): a failed run is recorded
   * as the job's failure, a failure to record it goes to options.onError, and stop() waits for inFlight.
   */
  private execute(job: Job<object>, reserved = false): void {
    if (!reserved) this.inFlight++;
    this.running.add(job);
    void this.options
      .run(job)
      .then(
        () => {
          this.finished.push(job);
          this.scheduleFlush();
        },
        async (error: unknown) => {
          const message = jobFailureMessage(error);
          await settleWithRetries(() => this.source.fail(job, message)).catch((failError: unknown) => this.options.onError(failError));
        },
      )
      .finally(() => {
        this.inFlight--;
        this.running.delete(job);
        if (this.inFlight === 0) this.drained?.();
        // A slot is free; its group slot frees once the completion is written (the flush wakes us then).
        if (!this.finished.length) this.slotFreed();
      });
  }

  /** One complete statement for every job that finished while the previous one was being written. */
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.finished.length) {
        const batch = this.finished.splice(0, this.finished.length);
        try {
          await settleWithRetries(() => this.source.complete(batch));
        } catch (error) {
          // Left active, the jobs expire and run again; attempts are idempotent (see lib/jobs).
          this.options.onError(error);
        }
        this.slotFreed();
      }
    })().finally(() => {
      this.flushing = null;
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.finished.length) {
      this.scheduleFlush();
      await this.flushing;
    }
  }
}
