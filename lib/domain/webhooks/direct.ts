import { systemCtx, type DirectDeliveryBatch, type Services } from "@/lib/domain/context";
import { rootMessage } from "@/lib/error-kind";
import { attemptDelivery, type AttemptScope } from "./attempt";
import { giveBackLeases } from "./lease-sweep";

/**
 * Direct deliveries (README "Performance", issue 35): a worker that writes an event's delivery in a
 * transaction attempts it itself once that transaction commits, instead of inserting a queue job that
 * some worker then fetches, looks up and completes. The job was most of what a delivery cost the
 * database; its insert, NOTIFY, fetch and completion are gone, and the webhook is called without
 * waiting for a fetch.
 *
 * What the job gave is kept otherwise:
 * - Durability: the delivery is written pending with a lease (lease_expires_at, LEASE_MS ahead) in the
 *   same statement as its event. Every outcome of the attempt clears it (attempt.ts). A worker that dies
 *   first leaves it set; once it has passed, the lease sweep (lease-sweep.ts, every worker's watchdog)
 *   gives the attempt to a job, and from there it is an ordinary delivery. At least once, as before.
 * - Bounds: at most CAPACITY attempts in flight per process and PER_PROJECT per project, so a slow
 *   receiver cannot hold every slot; past either, the delivery gets its job as before.
 * - Retries: a failed attempt schedules attempt 2 as a job, exactly as a job's attempt does.
 *
 * Web processes never install it (their requests' deliveries keep their jobs): only a process that runs
 * jobs attempts deliveries.
 */
export const LEASE_MS = 30_000;
const CAPACITY = 400;
const PER_PROJECT = 100;

class DirectDispatcher {
  private inFlight = 0;
  /** The deliveries being attempted now: what a shutdown gives to jobs when they outlast its grace. */
  readonly attempting = new Set<string>();
  private readonly perProject = new Map<string, number>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly services: Services,
    private readonly limits: { capacity: number; perProject: number },
  ) {}

  reserve(projectId: string): boolean {
    const held = this.perProject.get(projectId) ?? 0;
    if (this.inFlight >= this.limits.capacity || held >= this.limits.perProject) return false;
    this.inFlight++;
    this.perProject.set(projectId, held + 1);
    return true;
  }

  release(projectId: string): void {
    this.inFlight--;
    const held = (this.perProject.get(projectId) ?? 1) - 1;
    if (held > 0) this.perProject.set(projectId, held);
    else this.perProject.delete(projectId);
    if (this.inFlight === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Attempt 1 of a delivery its caller committed; its slot is freed when the attempt is settled. */
  dispatch(projectId: string, deliveryId: string, scope: AttemptScope | undefined): void {
    const ctx = systemCtx(this.services);
    this.attempting.add(deliveryId);
    void attemptDelivery(ctx, { deliveryId, attempt: 1 }, {}, scope)
      // The lease stays set: the sweep gives the attempt to a job once it has passed.
      .catch((error: unknown) => console.error(`[webhooks] direct attempt of ${deliveryId} failed; its lease sweep retries it: ${rootMessage(error)}`))
      .finally(() => {
        this.attempting.delete(deliveryId);
        this.release(projectId);
      });
  }

  /** Resolves once no attempt is in flight, or after `timeoutMs` (a shutdown's grace; the sweep has the rest). */
  idle(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** One transaction's direct deliveries: attempted when it commits, their slots freed if it does not. */
class Batch implements DirectDeliveryBatch {
  private reserved: string[] = [];
  private readonly written: { projectId: string; deliveryId: string; scope: AttemptScope | undefined }[] = [];
  /** Committed or abandoned: a ctx kept past its transaction gets jobs, never a slot nobody frees. */
  private closed = false;

  constructor(private readonly dispatcher: DirectDispatcher) {}

  reserve(projectId: string, now: Date): Date | null {
    if (this.closed || !this.dispatcher.reserve(projectId)) return null;
    this.reserved.push(projectId);
    return new Date(now.getTime() + LEASE_MS);
  }

  settle(projectId: string, deliveryId: string | null, scope?: AttemptScope): void {
    const index = this.reserved.indexOf(projectId);
    if (index < 0) return;
    this.reserved.splice(index, 1);
    if (deliveryId) this.written.push({ projectId, deliveryId, scope });
    else this.dispatcher.release(projectId);
  }

  commit(): void {
    this.closed = true;
    this.abandonReservations();
    for (const { projectId, deliveryId, scope } of this.written.splice(0)) this.dispatcher.dispatch(projectId, deliveryId, scope);
  }

  /** The transaction rolled back: nothing it wrote exists, so nothing is attempted. */
  abandon(): void {
    this.closed = true;
    this.abandonReservations();
    for (const { projectId } of this.written.splice(0)) this.dispatcher.release(projectId);
  }

  private abandonReservations(): void {
    for (const projectId of this.reserved.splice(0)) this.dispatcher.release(projectId);
  }
}

// On globalThis, as the reaction lists and the inbox publisher are: Next may evaluate this module twice.
const holder = globalThis as typeof globalThis & { __svcDirectDeliveries?: DirectDispatcher[] };
const installed = (holder.__svcDirectDeliveries ??= []);

/**
 * Makes this process attempt the deliveries its jobs write (the composition root, for a process that
 * runs jobs; tests that exercise it). The returned function uninstalls it, waits up to `graceMs` for
 * the attempts in flight, and gives those still running to jobs (lease-sweep.ts giveBackLeases); it
 * returns how many it gave.
 */
export function installDirectDeliveries(services: Services, limits: { capacity?: number; perProject?: number } = {}): (graceMs?: number) => Promise<number> {
  const dispatcher = new DirectDispatcher(services, { capacity: limits.capacity ?? CAPACITY, perProject: limits.perProject ?? PER_PROJECT });
  installed.push(dispatcher);
  return async (graceMs = 5_000) => {
    const index = installed.indexOf(dispatcher);
    if (index >= 0) installed.splice(index, 1);
    await dispatcher.idle(graceMs);
    const left = [...dispatcher.attempting];
    if (!left.length) return 0;
    return giveBackLeases(systemCtx(services), left).catch((error: unknown) => {
      console.error(`[webhooks] could not give ${left.length} direct deliveries to jobs; the lease sweep will: ${rootMessage(error)}`);
      return 0;
    });
  };
}

/**
 * Runs `work` (a transaction, given the batch for its ctx's `direct`) and attempts the deliveries it
 * wrote once it has returned, that is, committed. Without an installed dispatcher the batch is null and
 * every delivery gets its job.
 */
export async function withDirectDeliveries<T>(work: (direct: DirectDeliveryBatch | null) => Promise<T>): Promise<T> {
  const dispatcher = installed.at(-1);
  const batch = dispatcher ? new Batch(dispatcher) : null;
  let result: T;
  try {
    result = await work(batch);
  } catch (error) {
    batch?.abandon();
    throw error;
  }
  batch?.commit();
  return result;
}
