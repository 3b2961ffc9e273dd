import { and, eq, sql, type SQL } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { newId } from "@/lib/ids";
import { SvcError, invalidRequest, notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { assertOutboundUrl } from "@/lib/domain/shared/outbound-url";
import { analyzeFlow } from "./flow-json/analyze";
import type { Draft, FlowJson } from "./flow-json/types";
import { serializeFlow, type FlowIncludes, type FlowRow } from "./serialize";

/** POST /flows and PATCH /flows/{id} (docs/spec/decisions.md "Flows"): exactly one of draft / flow_json on create. */
export interface FlowWriteInput {
  name?: string | undefined;
  description?: string | null | undefined;
  config_key?: string | null | undefined;
  locale?: string | null | undefined;
  runtime_mode?: "STATIC" | "DATA_EXCHANGE" | undefined;
  data_exchange_url?: string | null | undefined;
  draft?: Draft | undefined;
  flow_json?: FlowJson | undefined;
}

type RuntimeMode = FlowRow["runtimeMode"];

/** BCP-47 in its canonical case (pt-br → pt-BR), so locale resolution compares like with like. */
export function canonicalLocale(locale: string | null | undefined): string | null {
  if (!locale) return null;
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? locale;
  } catch {
    throw invalidRequest("locale is not a valid BCP-47 tag.", { locale: ["A BCP-47 tag such as en, pt-BR or es-419."] });
  }
}

/** The compiled JSON, field schema and findings of what is being saved: work in progress is stored with its findings. */
function analysisColumns(source: { draft: Draft } | { flow_json: FlowJson }, runtimeMode: RuntimeMode) {
  const analysis = analyzeFlow(source, { runtimeMode });
  return {
    draft: "draft" in source ? (source.draft as unknown as Record<string, unknown>) : null,
    sourceFlowJson: "flow_json" in source ? source.flow_json : null,
    flowJson: analysis.flow_json,
    fieldSchema: analysis.field_schema,
    validationErrors: analysis.validation_errors,
  };
}

/** Required for DATA_EXCHANGE; a URL being written passes the SSRF guard as webhook_url does (checked at write, called later). */
async function assertDataExchangeUrl(ctx: Ctx, runtimeMode: RuntimeMode, url: string | null, written: string | null | undefined) {
  if (runtimeMode === "DATA_EXCHANGE" && !url) {
    throw invalidRequest("A DATA_EXCHANGE flow needs data_exchange_url: the provider's calls are forwarded there.", {
      data_exchange_url: ["Required when runtime_mode is DATA_EXCHANGE."],
    });
  }
  if (written) await assertOutboundUrl("data_exchange_url", written, ctx.settings.allowPrivateNetwork);
}

function conflict(configKey: string | null, locale: string | null) {
  const variant = locale ? `locale ${locale}` : "the group default (no locale)";
  return new SvcError("flow_conflict", `A flow with config_key '${configKey}' and ${variant} exists in this project. Change the locale, or edit that flow.`, {
    issues: { locale: ["Already used with this config_key."] },
  });
}

export async function createFlow(ctx: Ctx, input: FlowWriteInput) {
  const runtimeMode = input.runtime_mode ?? "STATIC";
  const dataExchangeUrl = input.data_exchange_url ?? null;
  await assertDataExchangeUrl(ctx, runtimeMode, dataExchangeUrl, input.data_exchange_url);
  const source = input.draft ? { draft: input.draft } : { flow_json: input.flow_json! };
  const configKey = input.config_key ?? null;
  const locale = canonicalLocale(input.locale);
  try {
    const [row] = await ctx.db
      .insert(flows)
      .values({
        id: newId("flow", ctx.now.getTime()),
        projectId: ctx.project.id,
        configKey,
        locale,
        name: input.name!,
        description: input.description ?? null,
        status: "DRAFT",
        metaStatus: null,
        runtimeMode,
        dataExchangeUrl,
        ...analysisColumns(source, runtimeMode),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .returning();
    return serializeFlow(row!);
  } catch (error) {
    if (isUniqueViolation(error, "flows_project_key_locale")) throw conflict(configKey, locale);
    throw error;
  }
}

export async function getFlowRow(ctx: Ctx, id: string): Promise<FlowRow> {
  const [row] = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)));
  if (!row) throw notFound("flow", id);
  return row;
}

function includesOf(include: string | undefined): FlowIncludes {
  const parts = new Set((include ?? "").split(",").filter(Boolean));
  return { flowJson: parts.has("flow_json"), draft: parts.has("draft") };
}

export async function getFlow(ctx: Ctx, id: string, include?: string) {
  return serializeFlow(await getFlowRow(ctx, id), includesOf(include));
}

export async function listFlows(ctx: Ctx, params: PageParams & { config_key?: string | undefined; status?: FlowRow["status"] | undefined }) {
  const filters: SQL[] = [];
  if (params.config_key) filters.push(eq(flows.configKey, params.config_key));
  if (params.status) filters.push(eq(flows.status, params.status));
  const page = await paginate(ctx.db, flows, eq(flows.projectId, ctx.project.id), params, filters.length ? and(...filters) : undefined);
  return { object: "list" as const, data: page.data.map((row) => serializeFlow(row)), has_more: page.has_more };
}

/**
 * PATCH: a content change (draft, flow_json, runtime mode, data URL) is re-analysed and bumps the
 * revision, so a PUBLISHED flow shows has_unpublished_changes while sends stay on its published version.
 */
export async function updateFlow(ctx: Ctx, id: string, input: FlowWriteInput) {
  const row = await getFlowRow(ctx, id);
  if (row.status === "DEPRECATED") {
    throw new SvcError("conflict", `Flow ${id} is DEPRECATED and can no longer change. Create a new flow: it may take this flow's config_key and locale.`, {
      flow_id: id,
    });
  }
  const runtimeMode = input.runtime_mode ?? row.runtimeMode;
  const dataExchangeUrl = input.data_exchange_url !== undefined ? input.data_exchange_url : row.dataExchangeUrl;
  await assertDataExchangeUrl(ctx, runtimeMode, dataExchangeUrl, input.data_exchange_url);
  const contentChanged =
    input.draft !== undefined || input.flow_json !== undefined || runtimeMode !== row.runtimeMode || dataExchangeUrl !== row.dataExchangeUrl;
  const source = input.draft
    ? { draft: input.draft }
    : input.flow_json
      ? { flow_json: input.flow_json }
      : row.draft
        ? { draft: row.draft as unknown as Draft }
        : { flow_json: row.sourceFlowJson ?? {} };
  const configKey = input.config_key !== undefined ? input.config_key : row.configKey;
  const locale = input.locale !== undefined ? canonicalLocale(input.locale) : row.locale;
  try {
    const [updated] = await ctx.db
      .update(flows)
      .set({
        name: input.name ?? row.name,
        description: input.description !== undefined ? input.description : row.description,
        configKey,
        locale,
        runtimeMode,
        dataExchangeUrl,
        ...(contentChanged ? { ...analysisColumns(source, runtimeMode), revision: sql`${flows.revision} + 1` } : {}),
        updatedAt: ctx.now,
      })
      .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)))
      .returning();
    return serializeFlow(updated!);
  } catch (error) {
    if (isUniqueViolation(error, "flows_project_key_locale")) throw conflict(configKey, locale);
    throw error;
  }
}

/** Only a flow that was never published (nor is being published) can be deleted: customers may hold the others. */
export async function deleteFlow(ctx: Ctx, id: string) {
  const row = await getFlowRow(ctx, id);
  if (row.publishedVersion !== null || row.metaStatus === "PUBLISHING") {
    throw new SvcError("flow_published", `Flow ${id} has been published, so customers may still open it. Deprecate it instead (POST /flows/${id}/deprecate).`, {
      flow_id: id,
    });
  }
  await ctx.db.delete(flows).where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, id)));
  return { object: "flow" as const, id, deleted: true as const };
}
