import { vi } from "vitest";
import type { Db } from "@/lib/ports/db/types";
import { apiKeys } from "@/lib/db/schema";

/**
 * The names of the statements `run` prepares on `db`'s session class (each is one round trip), and its
 * result. The prototype is spied: a transaction's session is its own instance of the same class.
 */
export async function statementsDuring<T>(db: Db, run: () => Promise<T>): Promise<{ result: T; statements: unknown[] }> {
  const session = (db as unknown as { session: object }).session;
  const spy = vi.spyOn(Object.getPrototypeOf(session) as { prepareQuery: (...args: unknown[]) => unknown }, "prepareQuery");
  try {
    const result = await run();
    return { result, statements: spy.mock.calls.map((call) => call[2]) };
  } finally {
    spy.mockRestore();
  }
}

/**
 * The SQL of every prepared query `run` executes on `db`'s handles, in order, and its result. The class
 * every prepared query of the database is gets spied: a statement prepared once per database (the key
 * lookup, the send's read) is executed again on every request without being prepared again.
 */
export async function executedDuring<T>(db: Db, run: () => Promise<T>): Promise<{ result: T; executed: string[] }> {
  const prepared = Object.getPrototypeOf(db.select().from(apiKeys).prepare("probe")) as { execute: (...args: unknown[]) => unknown };
  const execute = vi.spyOn(prepared, "execute");
  try {
    const result = await run();
    return { result, executed: execute.mock.contexts.map((query) => String((query as { queryString?: string }).queryString)) };
  } finally {
    execute.mockRestore();
  }
}
