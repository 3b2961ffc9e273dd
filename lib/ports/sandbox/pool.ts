import type { WorkerJob } from "./protocol";
import type { HostBridge } from "./types";
import { WorkerSlot, type SlotOutcome } from "./worker-slot";

/**
 * A fixed number of worker slots and one FIFO queue of jobs waiting for a free slot. Jobs go to a warm
 * slot first (worker started, runtime prepared), then to a slot whose worker is not started yet: workers
 * start on demand and then stay.
 */

export interface PoolConfig {
  size: number;
  workerPath: string;
  memoryBytes: number;
}

export interface PoolStats {
  /** Worker threads started since the pool was created, replacements included. */
  workersStarted: number;
  workersAlive: number;
  queued: number;
}

interface QueuedJob {
  job: WorkerJob;
  bridge: HostBridge | null;
  resolve: (outcome: SlotOutcome) => void;
  reject: (error: Error) => void;
}

export class SandboxPool {
  private readonly slots: WorkerSlot[];
  private readonly queue: QueuedJob[] = [];
  private closed = false;

  constructor(config: PoolConfig) {
    const slotConfig = { workerPath: config.workerPath, memoryBytes: config.memoryBytes, onAvailable: () => this.pump() };
    this.slots = Array.from({ length: Math.max(1, config.size) }, () => new WorkerSlot(slotConfig));
  }

  submit(job: WorkerJob, bridge: HostBridge | null): Promise<SlotOutcome> {
    if (this.closed) return Promise.reject(new Error("The sandbox is closed."));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, bridge, resolve, reject });
      this.pump();
    });
  }

  stats(): PoolStats {
    return {
      workersStarted: this.slots.reduce((sum, slot) => sum + slot.starts, 0),
      workersAlive: this.slots.filter((slot) => slot.alive).length,
      queued: this.queue.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(new Error("The sandbox was closed before the function ran."));
    await Promise.all(this.slots.map((slot) => slot.close()));
  }

  /**
   * A warm slot, else one whose worker is starting; a new worker only when none is about to be free
   * (a slot recycling its runtime is free in milliseconds, a new worker takes far longer to start).
   */
  private pickSlot(): WorkerSlot | undefined {
    const warm = this.slots.find((slot) => slot.warm) ?? this.slots.find((slot) => slot.available && slot.alive);
    if (warm || this.slots.some((slot) => slot.recycling)) return warm;
    return this.slots.find((slot) => slot.available);
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0) {
      const slot = this.pickSlot();
      if (!slot) return;
      const next = this.queue.shift();
      if (!next) return;
      slot.run(next.job, next.bridge).then(next.resolve, next.reject);
    }
  }
}
