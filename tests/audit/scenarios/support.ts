import type { AuditAction } from "@/lib/shared/audit-actions";
import type { Harness } from "../../messages/support";
import type { CallResult, Seeded } from "../../support/app";
import { addOperator, dash, type Operator } from "../../dashboard/support";

/**
 * One proof that an operation records what its audit declaration says (tests/audit/route-coverage.test.ts):
 * `setup` seeds what the call needs (its own entries are not counted), `act` makes the one call, and the
 * entries written during `act` must include every action of `proves`.
 */
export interface AuditScenario<T = unknown> {
  /** The operation called (its operationId in a routing table). */
  operationId: string;
  proves: readonly AuditAction[];
  /** Who makes the call: a key of the project, or its owner in the dashboard. */
  actor: "api_key" | "user";
  setup?: (stage: Stage) => Promise<T>;
  act: (stage: Stage, given: T) => Promise<CallResult>;
  /** Values that must appear nowhere in the entries written (a secret the call carried or answered). */
  secrets?: (given: T, result: CallResult) => string[];
}

/** A fresh project per scenario, its `*` key and an owner, on a harness with the provider simulator. */
export interface Stage {
  h: Harness;
  seeded: Seeded;
  owner: Operator;
  /** /api/v1 with the project's key. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult>;
  /** /api/dashboard/projects/{id}{path} as the owner. */
  dash(method: string, path: string, body?: unknown): Promise<CallResult>;
}

export function scenario<T>(s: AuditScenario<T>): AuditScenario {
  return s as AuditScenario;
}

let stages = 0;

export async function newStage(h: Harness): Promise<Stage> {
  const seeded = await h.app.seed({ orgName: `Audited ${++stages}`, projectName: `Audited ${stages}` });
  const owner = await addOperator(h.app, seeded, "owner", `owner${stages}-${process.pid}@acme.example`);
  return {
    h,
    seeded,
    owner,
    api: (method, path, body, headers) => h.app.call(method, path, { key: seeded.key, body, headers }),
    dash: (method, path, body) => dash(h.app, method, `/projects/${seeded.projectId}${path}`, { as: owner, body }),
  };
}

/** Fails with the answer when a setup call did not succeed. */
export function ok(result: CallResult, what: string): CallResult {
  if (result.status !== 200) throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body)}`);
  return result;
}
