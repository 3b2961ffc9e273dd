/**
 * A unique-constraint violation (23505) of the named constraint, from either driver: postgres-js puts
 * `constraint_name` on the error, PGlite names it in the message, and drizzle wraps both in `cause`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, constraint_name: name, constraint: other } = e as { code?: string; message?: string; constraint_name?: string; constraint?: string };
    if (code === "23505" && (name === constraint || other === constraint || String(message).includes(constraint))) return true;
  }
  return false;
}
