/**
 * Base classes for every error svc throws on purpose, recognised by a brand (`Kind.is(error)`),
 * never by `instanceof`.
 *
 * Why: the production build can bundle one module more than once (the runtime is created from the
 * instrumentation chunk, route handlers from their own chunks), so an error thrown by one copy of a
 * class is not `instanceof` the other copy. That turned a Redis outage into a 500 instead of the 503
 * the limiter port promises, and an unsatisfiable Range into a 500 instead of 416; vitest's single
 * module graph could not see it. `Symbol.for` gives one symbol per process whatever the number of
 * copies, so the brand holds across them. tests/error-kind.test.ts loads two copies to prove it and
 * fails on any `instanceof` of one of these classes in lib/ or app/.
 */
const KIND = Symbol.for("svc.error-kind");

function kindOf(value: unknown): unknown {
  return typeof value === "object" && value !== null ? (value as { [KIND]?: unknown })[KIND] : undefined;
}

/** `class LimiterUnavailable extends errorKind("LimiterUnavailable") { ... }`; then `LimiterUnavailable.is(e)`. */
export function errorKind<K extends string>(kind: K) {
  return class BrandedError extends Error {
    static readonly kind: K = kind;
    readonly [KIND]: K = kind;

    /** True for an error of this kind from ANY copy of the class (see the module comment). */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- "any constructor", as TypeScript's own InstanceType spells it
    static is<T extends abstract new (...args: any[]) => unknown>(this: T, value: unknown): value is InstanceType<T> {
      return kindOf(value) === kind;
    }
  };
}

/** The innermost cause's message: drizzle wraps the database's own words in "Failed query: <sql>". */
export function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
