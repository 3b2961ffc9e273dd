import { and, eq, type SQL } from "drizzle-orm";
import { channels, templates } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { paginate, type PageParams } from "@/lib/domain/shared/paging";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { providerCall } from "@/lib/domain/flows/provider-call";
import { recordAudit } from "@/lib/domain/audit/record";
import { serializeTemplate, type TemplateRow, type TemplateStatus } from "./serialize";

export async function getTemplateRow(ctx: Ctx, id: string): Promise<TemplateRow> {
  const [row] = await ctx.db
    .select()
    .from(templates)
    .where(and(eq(templates.projectId, ctx.project.id), eq(templates.id, id)));
  if (!row) throw notFound("template", id);
  return row;
}

export async function getTemplate(ctx: Ctx, id: string) {
  return serializeTemplate(await getTemplateRow(ctx, id));
}

export interface TemplateListFilters {
  channel_id?: string | undefined;
  status?: TemplateStatus | undefined;
  name?: string | undefined;
  language?: string | undefined;
}

/** GET /templates: newest first, every filter an exact match. */
export async function listTemplates(ctx: Ctx, params: PageParams & TemplateListFilters) {
  const filters: SQL[] = [];
  if (params.channel_id) filters.push(eq(templates.channelId, params.channel_id));
  if (params.status) filters.push(eq(templates.status, params.status));
  if (params.name) filters.push(eq(templates.name, params.name));
  if (params.language) filters.push(eq(templates.language, params.language));
  const page = await paginate(ctx.db, templates, eq(templates.projectId, ctx.project.id), params, filters.length ? and(...filters) : undefined);
  return { object: "list" as const, data: page.data.map(serializeTemplate), has_more: page.has_more };
}

/**
 * DELETE /templates/{id}: the provider's copy first (that one language only), then ours, so a
 * provider refusal (502 provider_error) leaves both in place and the call can be repeated.
 */
export async function deleteTemplate(ctx: Ctx, id: string) {
  const row = await getTemplateRow(ctx, id);
  if (row.metaTemplateId) {
    const [channel] = await ctx.db
      .select()
      .from(channels)
      .where(and(eq(channels.id, row.channelId), eq(channels.organizationId, ctx.org.id)));
    if (!channel) throw new SvcError("conflict", `The channel of template ${id} (${row.channelId}) is gone.`, { template_id: id });
    const account = providerAccountOf(channel, ctx.settings);
    await providerCall(() => ctx.ports.provider.templates.remove(account, { name: row.name, metaTemplateId: row.metaTemplateId! }));
  }
  await ctx.db.transaction(async (tx) => {
    await tx.delete(templates).where(and(eq(templates.projectId, ctx.project.id), eq(templates.id, id)));
    await recordAudit(
      { ...ctx, db: tx },
      { action: "template.deleted", target: { type: "template", id }, details: { name: row.name, language: row.language } },
    );
  });
  return { object: "whatsapp_template" as const, id, deleted: true as const };
}
