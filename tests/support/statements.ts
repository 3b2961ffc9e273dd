import { vi } from "vitest";
import type { Db } from "@/lib/ports/db/types";

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
