import type { Sql } from "postgres";
import { Fanout } from "./fanout";
import { assertPayloadSize, type BusPort } from "./types";

interface Pending {
  channel: string;
  payload: string;
  settle: (error?: unknown) => void;
}

/**
 * Postgres LISTEN/NOTIFY on the application's own postgres-js client. Listening uses postgres-js's one
 * dedicated listen connection (the queue's job NOTIFYs share it), which it re-opens and re-listens after
 * a reconnect; what is published meanwhile is not seen (nothing is stored). Publishes made during one
 * turn of the event loop go out as ONE statement on the pool (`pg_notify` over a jsonb array), so a burst
 * costs a single round trip. The database scopes channels: processes on one database see each other.
 */
export function postgresBus(sql: Sql): BusPort {
  let pending: Pending[] = [];
  let flushing: Promise<void> | null = null;

  async function flush(): Promise<void> {
    const batch = pending;
    pending = [];
    flushing = null;
    if (!batch.length) return;
    try {
      // One jsonb parameter (as lib/ports/db/bulk.ts passes rows): one statement text, prepared once, in order.
      const pairs = JSON.stringify(batch.map((b) => [b.channel, b.payload]));
      await sql`select pg_notify(e->>0, e->>1) from jsonb_array_elements(${pairs}::jsonb) with ordinality as t(e, n) order by n`;
      for (const item of batch) item.settle();
    } catch (error) {
      for (const item of batch) item.settle(error);
    }
  }

  const fanout = new Fanout(async (channel) => {
    const { unlisten } = await sql.listen(channel, (payload) => fanout.deliver(channel, payload));
    return async () => void (await unlisten());
  });

  return {
    backend: "postgres",
    publish(channel, payload) {
      try {
        assertPayloadSize(payload);
      } catch (error) {
        return Promise.reject(error);
      }
      return new Promise<void>((resolve, reject) => {
        pending.push({ channel, payload, settle: (error) => (error === undefined ? resolve() : reject(error)) });
        flushing ??= new Promise<void>((done) => setImmediate(() => void flush().finally(done)));
      });
    },
    subscribe: (channel, handler) => fanout.subscribe(channel, handler),
    async close() {
      // What was published before the close still goes out; the client itself is the database's to end.
      await flushing;
      await fanout.close();
    },
  };
}
