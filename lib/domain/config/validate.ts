import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { isRecord } from "@/lib/json";
import { OUTBOUND_URL_RULE, outboundUrlProblem } from "@/lib/domain/shared/outbound-url";
import { configDocumentSchema, type ConfigDocument } from "./schema";
import { documentErrors } from "./checks";
import { agentErrors } from "./agent-checks";
import { judgeAgents } from "./agent-judge";
import { desiredFlows } from "./desired";
import { diffDocument, type ConfigDiff } from "./diff";
import { error, fromZod, hasErrors, ordered, pathOf, type ConfigIssue } from "./issues";
import { loadConfigFacts, type ConfigFacts } from "./load";
import { documentWarnings } from "./warnings";

/** A document judged against the project: the parsed document and its diff when it parsed, and every issue. */
export interface CheckedConfig {
  document: ConfigDocument | null;
  diff: ConfigDiff | null;
  issues: ConfigIssue[];
  valid: boolean;
}

/** project_id names the project the document is for: another one is refused outright, before any judging. */
function assertDocumentProject(ctx: Pick<Ctx, "project">, body: unknown): void {
  if (!isRecord(body) || typeof body.project_id !== "string" || body.project_id === ctx.project.id) return;
  throw new SvcError(
    "config_project_mismatch",
    `This document is for project ${body.project_id}, but the API key belongs to project ${ctx.project.id}. Use a key of ${body.project_id}, or change project_id.`,
    { issues: { project_id: [`Must be ${ctx.project.id}, the key's project.`] } },
  );
}

/** Parse, then the checks zod cannot make, the warnings and the diff (docs/spec/decisions.md "Config-as-code"). */
export async function checkConfig(ctx: Ctx, body: unknown, facts: ConfigFacts): Promise<CheckedConfig> {
  assertDocumentProject(ctx, body);
  const parsed = configDocumentSchema.safeParse(body);
  if (!parsed.success) return { document: null, diff: null, issues: fromZod(parsed.error), valid: false };
  const doc = parsed.data;
  const desired = desiredFlows(doc.flows);
  const agents = await judgeAgents(ctx, doc, facts);
  const diff = diffDocument(doc, desired, facts, doc.business_agents ? agents.desired : null);
  const issues = ordered([
    ...documentErrors(doc, facts),
    ...agentErrors(doc, facts),
    ...agents.issues,
    ...(await outboundUrlIssues(doc, facts, ctx.settings.allowPrivateNetwork)),
    ...diff.issues,
    ...documentWarnings(doc, desired, facts),
  ]);
  return { document: doc, diff, issues, valid: !hasErrors(issues) };
}

/**
 * The guard PATCH /projects and POST /flows put on the URLs they store (lib/domain/shared/outbound-url.ts):
 * no private, loopback or metadata addresses (unless allowed). Only a new URL is resolved: a stored one
 * was checked when it was set.
 */
async function outboundUrlIssues(doc: ConfigDocument, facts: ConfigFacts, allowPrivate: boolean | undefined): Promise<ConfigIssue[]> {
  const stored = new Set(facts.flows.map((row) => row.dataExchangeUrl));
  const candidates: { path: string; url: string }[] = [];
  const webhook = doc.webhook?.url;
  if (webhook && webhook !== facts.project.webhookUrl) candidates.push({ path: "webhook.url", url: webhook });
  doc.flows.forEach((entry, index) => {
    if (entry.data_exchange_url && !stored.has(entry.data_exchange_url))
      candidates.push({ path: pathOf("flows", index, "data_exchange_url"), url: entry.data_exchange_url });
  });
  const issues: ConfigIssue[] = [];
  for (const { path, url } of candidates) {
    const problem = await outboundUrlProblem(url, allowPrivate);
    if (problem !== null) issues.push(error(path, `Not allowed (${problem}): ${OUTBOUND_URL_RULE}`));
  }
  return issues;
}

/** POST /config/validate. */
export async function validateConfig(ctx: Ctx, body: unknown) {
  const checked = await checkConfig(ctx, body, await loadConfigFacts(ctx));
  return { object: "config_validation" as const, valid: checked.valid, config: checked.document, issues: checked.issues };
}

/** POST /config/diff: what apply would do, nothing written. */
export async function diffConfig(ctx: Ctx, body: unknown) {
  const checked = await checkConfig(ctx, body, await loadConfigFacts(ctx));
  return { object: "config_diff" as const, valid: checked.valid, issues: checked.issues, diff: checked.diff?.items ?? [] };
}
