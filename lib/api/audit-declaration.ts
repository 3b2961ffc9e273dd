import { isAuditAction, type AuditAction } from "@/lib/shared/audit-actions";

/**
 * What a write operation says about the audit log (docs/api-decisions.md "Audit log"): the actions it
 * may record, or why it records none. Every operation that is not a GET declares one, so a new write
 * cannot ship without someone deciding; tests/audit/route-coverage.test.ts walks the tables and proves
 * each declared action is written by a real call.
 */
export type AuditDeclaration = readonly [AuditAction, ...AuditAction[]] | { exempt: string };

/** An exemption names its reason in words a reviewer can judge ("message traffic, not configuration"). */
const MIN_REASON_LENGTH = 12;

/** Checked once when the route is defined: a missing or empty declaration fails at module load (and so in every test). */
export function assertAuditDeclaration(route: { method: string; path: string }, audit: AuditDeclaration | undefined): AuditDeclaration | null {
  const name = `${route.method} ${route.path}`;
  if (route.method === "GET") {
    if (audit) throw new Error(`${name}: a GET changes nothing, so it declares no audit.`);
    return null;
  }
  if (!audit) throw new Error(`${name} writes: declare audit: ["<action>", ...] or { exempt: "<reason>" } (lib/api/audit-declaration.ts).`);
  if ("exempt" in audit) {
    if (audit.exempt.trim().length < MIN_REASON_LENGTH) throw new Error(`${name}: an audit exemption says why, in a sentence.`);
    return audit;
  }
  for (const action of audit) if (!isAuditAction(action)) throw new Error(`${name}: '${String(action)}' is not an audit action.`);
  return audit;
}

export function declaredActions(audit: AuditDeclaration | null): readonly AuditAction[] {
  return audit && !("exempt" in audit) ? audit : [];
}

/**
 * After a successful call (under tests, like the response shape check): every action the verbs
 * recorded must be one the route declared, so a declaration cannot go stale without a test failing.
 */
export function assertRecordedDeclared(operationId: string, audit: AuditDeclaration | null, recorded: readonly string[]): void {
  const declared = new Set<string>(declaredActions(audit));
  const undeclared = recorded.filter((action) => !declared.has(action));
  if (undeclared.length) {
    throw new Error(`${operationId} recorded ${undeclared.join(", ")}, which its audit declaration does not list (lib/api/audit-declaration.ts).`);
  }
}
