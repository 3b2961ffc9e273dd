import type { Sql } from "postgres";
import type { PGlite } from "@electric-sql/pglite";
import type { DatabaseHandle } from "./types";

/**
 * LISTEN on the application's database for `channel`. Postgres: postgres-js's one listen connection,
 * which it re-opens and re-listens after a reconnect, calling `onListening` each time (what was
 * notified meanwhile is lost: a listener that keeps state forgets it there). PGlite: the one in-process
 * session. Returns the unlisten. Used for pg-boss's job NOTIFYs (lib/ports/queue) and the kept API keys
 * (lib/domain/keys/auth-cache.ts).
 */
export async function listenOnDatabase(
  database: DatabaseHandle,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: () => void,
): Promise<() => Promise<void>> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === "pglite") {
    const unlisten = await (client as PGlite).listen(channel, onNotify);
    onListening();
    return unlisten;
  }
  const { unlisten } = await (client as Sql).listen(channel, onNotify, onListening);
  return unlisten;
}
