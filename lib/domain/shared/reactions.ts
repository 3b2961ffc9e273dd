import type { SystemCtx } from "@/lib/domain/context";
import type { JobCatalog, JobName } from "@/lib/jobs/catalog";

/**
 * How a feature reacts to a core event without the core importing it (ARCHITECTURE.md, "Reactions").
 * The core declares a list per event (an inbound message stored, a message status moved, ...) and runs
 * it inside the transaction that made the event, so a reaction commits or rolls back with it: no bus,
 * no second delivery, nothing to lose. The composition root (lib/domain/reactions.ts) installs each
 * list once per process, in the order its reactions run.
 */
export interface Reaction<Input, C extends SystemCtx = SystemCtx> {
  /** "<module>: what it does", for errors and the architecture's drawing. */
  name: string;
  react(ctx: C, input: Input): Promise<void>;
  /**
   * Whether `input` is anything to this reaction (absent: always). When no reaction in a list is
   * concerned, the core may write its event without them, in a statement of its own.
   */
  concerns?(input: Input): boolean;
}

/** A claim a feature makes on an event before the core goes on (the first that claims wins). */
export interface Claimer<Input, Claim, C extends SystemCtx = SystemCtx> {
  name: string;
  claim(ctx: C, input: Input): Promise<Claim | null>;
}

// On globalThis: the dev server may evaluate a core module again after an edit, and the lists it
// holds must survive that as the runtime (lib/server/runtime.ts) does.
const installed = ((globalThis as { __svcReactions?: Map<string, readonly unknown[]> }).__svcReactions ??= new Map());

function installedFor<T>(event: string): readonly T[] {
  const list = installed.get(event);
  if (!list)
    throw new Error(
      `No reactions are installed for "${event}": build the process with buildRuntime() or call installReactions() (lib/domain/reactions.ts) first.`,
    );
  return list as readonly T[];
}

abstract class Installable<T extends { name: string }> {
  constructor(readonly event: string) {}
  /** Replaces the list (the composition root calls it once per process; again is harmless). */
  install(items: readonly T[]): void {
    installed.set(this.event, [...items]);
  }
  /** The installed names in order (tests and the architecture's drawing). */
  names(): string[] {
    return installedFor<T>(this.event).map((item) => item.name);
  }
  protected items(): readonly T[] {
    return installedFor<T>(this.event);
  }
}

/** Every reaction runs, one after the other (one connection when ctx.db is a transaction), in install order. */
export class ReactionList<Input, C extends SystemCtx = SystemCtx> extends Installable<Reaction<Input, C>> {
  async run(ctx: C, input: Input): Promise<void> {
    for (const reaction of this.items()) await reaction.react(ctx, input);
  }
  /** Whether running the list for `input` could do anything (a reaction without `concerns` always could). */
  concerns(input: Input): boolean {
    return this.items().some((reaction) => reaction.concerns?.(input) ?? true);
  }
}

/** The claimers are asked in install order until one claims. */
export class ClaimList<Input, Claim, C extends SystemCtx = SystemCtx> extends Installable<Claimer<Input, Claim, C>> {
  async first(ctx: C, input: Input): Promise<Claim | null> {
    for (const claimer of this.items()) {
      const claim = await claimer.claim(ctx, input);
      if (claim) return claim;
    }
    return null;
  }
}

/** A job a feature asks the core to write with its row (in the same statement, when the core can). */
export interface QueuedJob {
  name: JobName;
  data: JobCatalog[JobName];
}

/** Which job, if any, a feature wants written with the core's row; answered from the row's facts alone. */
export interface JobAsk<Input> {
  name: string;
  job(input: Input): QueuedJob | null;
}

/**
 * The jobs the features ask for, in install order. Asked before the core writes its row, so the first
 * can go in the row's own statement (one round trip, and the job exists exactly when the row does).
 */
export class JobAskList<Input> extends Installable<JobAsk<Input>> {
  jobs(input: Input): QueuedJob[] {
    return this.items().flatMap((ask) => ask.job(input) ?? []);
  }
}
