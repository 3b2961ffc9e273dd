/**
 * Wakes the workers of a queue after jobs were inserted without a NOTIFY (job-insert.ts), one NOTIFY
 * for many inserts. Postgres takes one database-wide lock from a notifying transaction's pre-commit to
 * its end, WAL flush included, so a NOTIFY in every hot statement serialised their commits; here a
 * NOTIFY is a statement of its own that writes nothing (no WAL to flush under that lock).
 *
 * What it promises: every wake() is followed by a NOTIFY sent after the wake() call, so a job
 * committed before wake() is seen by a pump woken by it. Per queue at most one NOTIFY is in flight,
 * and the next one goes at least `gapMs` after the previous was sent; the wakes that arrive meanwhile
 * share it. An idle pump learns of a job at most `gapMs` plus a round trip later (a busy pump does not
 * wait for a NOTIFY at all: it fetches again as its jobs finish, pump.ts). A NOTIFY that fails (the
 * database is restarting) is not retried: the pumps' poll finds the job.
 */
export interface Waker {
  wake(queue: string): void;
  /** No NOTIFY is sent after it (the database is closing). */
  close(): void;
}

/** The default gap: below the pump's own shortest gap between two fetches (pump.ts FETCH_GAP_MS). */
const WAKE_GAP_MS = 10;

interface QueueWake {
  sending: boolean;
  /** A wake() arrived after the NOTIFY in flight (or the last one) was sent. */
  pending: boolean;
  lastSentAt: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export function createWaker(notify: (queue: string) => Promise<unknown>, gapMs = WAKE_GAP_MS, now: () => number = () => performance.now()): Waker {
  const queues = new Map<string, QueueWake>();
  let closed = false;

  function send(queue: string, state: QueueWake) {
    state.pending = false;
    state.sending = true;
    state.lastSentAt = now();
    notify(queue)
      .catch(() => {})
      .finally(() => {
        state.sending = false;
        if (state.pending) schedule(queue, state);
      });
  }

  function schedule(queue: string, state: QueueWake) {
    if (closed || state.sending || state.timer) return;
    const wait = state.lastSentAt + gapMs - now();
    if (wait <= 0) return send(queue, state);
    state.timer = setTimeout(() => {
      state.timer = null;
      if (!closed && state.pending) send(queue, state);
    }, wait);
    // A pending wake never keeps a process alive.
    state.timer.unref?.();
  }

  return {
    wake(queue) {
      if (closed) return;
      let state = queues.get(queue);
      if (!state) queues.set(queue, (state = { sending: false, pending: false, lastSentAt: -Infinity, timer: null }));
      state.pending = true;
      schedule(queue, state);
    },
    close() {
      closed = true;
      for (const state of queues.values()) if (state.timer) clearTimeout(state.timer);
    },
  };
}
