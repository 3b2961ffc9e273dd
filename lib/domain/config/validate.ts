import type { Ctx } from "@/lib/domain/context";
import { SvcError } from "@/lib/errors";
import { isRecord } from "@/lib/json";
import { OutboundNetworkError, SsrfError, assertPublicUrl } from "@/lib/ports/net/safe-request";
import { configDocumentSchema, type ConfigDocument } from "./schema";
import { documentErrors } from "./checks";
import { agentErrors } from "./agent-checks";
import { judgeAgents } from "./agent-judge";
import { desiredFlows } from "./desired";
import { diffDocument, type ConfigDiff } from "./diff";
import { error, fromZod, hasErrors, ordered, type ConfigIssue } from "./issues";
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
export function assertDocumentProject(ctx: Pick<Ctx, "project">, body: unknown): void {
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
    ...(await webhookUrlIssues(doc, facts, ctx.settings.allowPrivateNetwork)),
    ...diff.issues,
    ...documentWarnings(doc, desired, facts),
  ]);
  return { document: doc, diff, issues, valid: !hasErrors(issues) };
}

/**
 * The same guard PATCH /projects puts on webhook_url: no private, loopback or metadata addresses (unless
 * allowed). Only a new URL is resolved: the current one was checked when it was set.
 */
async function webhookUrlIssues(doc: ConfigDocument, facts: ConfigFacts, allowPrivate: boolean | undefined): Promise<ConfigIssue[]> {
  const url = doc.webhook?.url;
  if (!url || url === facts.project.webhookUrl) return [];
  try {
    await assertPublicUrl(url, ...(allowPrivate === undefined ? [] : [allowPrivate]));
    return [];
  } catch (failure) {
    if (!SsrfError.is(failure) && !OutboundNetworkError.is(failure)) throw failure;
    const reason = SsrfError.is(failure) ? failure.reason : failure.message;
    return [error("webhook.url", `Not allowed (${reason}): a public http(s) URL; private, loopback, link-local and metadata addresses are refused.`)];
  }
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
