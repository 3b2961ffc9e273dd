import type { AutomationEntry } from "@/lib/domain/automations/definition";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import type { ConfigDocument } from "./schema";
import { flowIdentity, isConfigOwned, localeOf, rowIdentity } from "./desired";
import { error, pathOf, type ConfigIssue } from "./issues";
import type { ConfigFacts } from "./load";

/**
 * The error checks zod cannot make (docs/spec/decisions.md "Config-as-code"): unique keys, the
 * document's own project ids, and references from automation steps to flows and functions, judged
 * against what the project will hold after the apply. Pure.
 */
export function documentErrors(doc: ConfigDocument, facts: ConfigFacts): ConfigIssue[] {
  return [...flowEntryErrors(doc, facts), ...duplicateAutomationKeys(doc.automations), ...referenceErrors(doc, facts)];
}

function flowEntryErrors(doc: ConfigDocument, facts: ConfigFacts): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Map<string, number>();
  const projectId = facts.project.id;
  doc.flows.forEach((entry, index) => {
    const path = (field: string) => pathOf("flows", index, field);
    for (const field of ["project_id", "agent_id"] as const) {
      const given = entry[field];
      if (given !== undefined && given !== projectId)
        issues.push(error(path(field), `${field} '${given}' is not this project (${projectId}); leave it out or use ${projectId}.`));
    }
    if (entry.runtime_mode === "DATA_EXCHANGE" && !entry.data_exchange_url) {
      issues.push(error(path("data_exchange_url"), "A DATA_EXCHANGE flow needs data_exchange_url: the provider's calls are forwarded there."));
    }
    const locale = localeOf(entry.locale);
    if (locale === undefined) {
      issues.push(error(path("locale"), `'${entry.locale}' is not a BCP-47 tag such as en, pt-BR or es-419.`));
      return;
    }
    const identity = flowIdentity(entry.key, locale);
    const first = seen.get(identity);
    if (first === undefined) seen.set(identity, index);
    else {
      const variant = locale ? `locale ${locale}` : "the group default (no locale)";
      issues.push(
        error(path(locale ? "locale" : "key"), `Flow key '${entry.key}' with ${variant} is already flows.${first}: each (key, locale) appears once.`),
      );
    }
  });
  return issues;
}

function duplicateAutomationKeys(entries: readonly AutomationEntry[]): ConfigIssue[] {
  const seen = new Map<string, number>();
  const issues: ConfigIssue[] = [];
  entries.forEach((entry, index) => {
    const first = seen.get(entry.key);
    if (first === undefined) seen.set(entry.key, index);
    else issues.push(error(pathOf("automations", index, "key"), duplicateKeyMessage(entry.key, first)));
  });
  return issues;
}

/** An automation key used twice: `first` is the index of its first use in the document (the config order). */
export function duplicateKeyMessage(key: string, first: number): string {
  return `Automation key '${key}' is already automations.${first}: keys are unique.`;
}

function referenceErrors(doc: ConfigDocument, facts: ConfigFacts): ConfigIssue[] {
  const refs = documentFlowRefs(
    doc.flows.map((f) => ({ key: f.key, locale: localeOf(f.locale) ?? null })),
    facts,
  );
  return doc.automations.flatMap((automation, a) => automationReferenceErrors(automation, refs, (...path) => pathOf("automations", a, ...path)));
}

/** What a send_flow step may name: the document's flow keys and (key, locale) identities, and the project's flows. */
export interface FlowRefs {
  docKeys: ReadonlySet<string>;
  docIdentities: ReadonlySet<string>;
  rows: readonly FlowRow[];
  functions: ConfigFacts["functions"];
}

export function documentFlowRefs(entries: ReadonlyArray<{ key: string; locale: string | null }>, facts: Pick<ConfigFacts, "flows" | "functions">): FlowRefs {
  return {
    docKeys: new Set(entries.map((f) => f.key)),
    docIdentities: new Set(entries.map((f) => flowIdentity(f.key, f.locale))),
    rows: facts.flows,
    functions: facts.functions,
  };
}

/**
 * One automation's references (send_flow.flow, run_function.function): config validate judges each
 * entry of the document with it, the automations API the one entry it writes (lib/domain/config/automation-checks.ts).
 */
export function automationReferenceErrors(automation: AutomationEntry, refs: FlowRefs, at: (...path: Array<string | number>) => string): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  automation.steps.forEach((step, s) => {
    if (step.send_flow) {
      const problem = flowReferenceProblem(step.send_flow.flow, refs.docKeys, refs.docIdentities, refs.rows);
      if (problem) issues.push(error(at("steps", s, "send_flow", "flow"), problem));
    }
    if (step.run_function) {
      const problem = functionReferenceProblem(step.run_function.function, refs);
      if (problem) issues.push(error(at("steps", s, "run_function", "function"), problem));
    }
  });
  return issues;
}

/** send_flow.flow: a flow key of the document, or the id of a flow the project keeps after this apply. */
function flowReferenceProblem(ref: string, docKeys: ReadonlySet<string>, docIdentities: ReadonlySet<string>, rows: readonly FlowRow[]): string | null {
  if (docKeys.has(ref)) return null;
  const row = rows.find((r) => r.id === ref);
  if (row) {
    if (row.status === "DEPRECATED") return `Flow ${ref} is DEPRECATED and can no longer be sent: name its replacement.`;
    if (isConfigOwned(row) && !docIdentities.has(rowIdentity(row))) {
      return `Flow ${ref} ('${rowIdentity(row)}') is not in the document, so this apply removes it: keep it in flows, or name another flow.`;
    }
    return null;
  }
  if (rows.some((r) => r.configKey === ref && isConfigOwned(r))) {
    return `Flow group '${ref}' is not in the document, so this apply removes it: keep it in flows, or name another flow.`;
  }
  return `No flow '${ref}' in the document or this project: name a flow key of the document's flows, or the id of a flow of this project.`;
}

/** run_function.function: a deployed, active function of this project, by slug or id. */
function functionReferenceProblem(ref: string, facts: Pick<ConfigFacts, "functions">): string | null {
  const fn = facts.functions.find((f) => f.id === ref || f.slug === ref);
  if (!fn) return `No function '${ref}' in this project: name a function's slug or id (GET /functions).`;
  if (!fn.deployed) return `Function '${ref}' has never been deployed: deploy it first (POST /functions/${fn.id}/deploy).`;
  if (!fn.active) return `Function '${ref}' is inactive (is_active false): activate it (PATCH /functions/${fn.id}) or name another.`;
  return null;
}
