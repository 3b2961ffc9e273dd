import type { BusHandler, Unsubscribe } from "./types";

/** How an adapter listens on one channel: resolves when it is in effect, with the way to stop. */
export type Listen = (channel: string) => Promise<() => Promise<void>>;

interface ChannelState {
  handlers: Set<BusHandler>;
  /** The backend subscription: pending while the first handler waits for it. */
  listening: Promise<() => Promise<void>>;
}

/**
 * The handlers of each channel in this process, over ONE backend subscription per channel (taken with
 * the first handler, given up with the last): however many dashboard streams follow a project, its
 * channel is listened to once and fanned out here. Every adapter shares it, so they behave alike.
 */
export class Fanout {
  private readonly channels = new Map<string, ChannelState>();
  /** A channel's backend subscription being given up: a new one waits for it, so the two never cross. */
  private readonly stopping = new Map<string, Promise<void>>();
  private closed = false;

  constructor(private readonly listen: Listen) {}

  async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
    if (this.closed) throw new Error("The bus is closed.");
    let state = this.channels.get(channel);
    if (!state) {
      const previous = this.stopping.get(channel) ?? Promise.resolve();
      state = { handlers: new Set(), listening: previous.then(() => this.listen(channel)) };
      this.channels.set(channel, state);
      // A failed listen leaves no state behind: the next subscriber tries again.
      state.listening.catch(() => {
        if (this.channels.get(channel) === state) this.channels.delete(channel);
      });
    }
    state.handlers.add(handler);
    try {
      await state.listening;
    } catch (error) {
      state.handlers.delete(handler);
      throw error;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.remove(channel, state, handler);
    };
  }

  private remove(channel: string, state: ChannelState, handler: BusHandler): void {
    state.handlers.delete(handler);
    if (state.handlers.size > 0 || this.channels.get(channel) !== state) return;
    this.channels.delete(channel);
    const stopped: Promise<void> = state.listening
      .then((stop) => stop())
      .catch(() => {})
      .finally(() => {
        if (this.stopping.get(channel) === stopped) this.stopping.delete(channel);
      });
    this.stopping.set(channel, stopped);
  }

  /** A message that arrived on `channel`: each handler gets it; one that throws does not stop the others. */
  deliver(channel: string, payload: string): void {
    const state = this.channels.get(channel);
    if (!state) return;
    for (const handler of [...state.handlers]) {
      try {
        handler(payload);
      } catch (error) {
        console.error("[bus] a handler failed:", error);
      }
    }
  }

  /** Gives up every backend subscription; later subscribes are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const states = [...this.channels.values()];
    this.channels.clear();
    await Promise.all([...states.map((state) => state.listening.then((stop) => stop()).catch(() => {})), ...this.stopping.values()]);
  }
}
