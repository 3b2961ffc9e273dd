import { and, eq } from "drizzle-orm";
import { templates } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import { providerAccountOf } from "@/lib/domain/channels/provider-account";
import { providerCall } from "@/lib/domain/flows/provider-call";
import { publishReadinessOf } from "@/lib/domain/channels/publish-readiness";
import { isUniqueViolation } from "@/lib/domain/shared/unique-violation";
import { SvcError, invalidRequest, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { ProviderError, type ProviderAccount, type ProviderTemplateSubmission } from "@/lib/ports/provider/types";
import { providerComponents } from "./flow-buttons";
import { serializeTemplate } from "./serialize";
import { TEMPLATE_CATEGORIES, type ParameterFormat, type TemplateCategory } from "@/lib/shared/templates/types";
import { recordAudit } from "@/lib/domain/audit/record";
import { validateTemplateComponents } from "@/lib/shared/templates/validate";

/** POST /templates (docs/spec/service-spec.md "Template create request", plus parameter_format). */
export interface TemplateCreateInput {
  channel_id: string;
  name: string;
  language: string;
  category: TemplateCategory;
  parameter_format?: ParameterFormat | undefined;
  components: Record<string, unknown>[];
}

/**
 * Submits a template for review (docs/spec/decisions.md "Templates"): the component rules, then the
 * channel (the project's own PLATFORM_A number, ready to submit), FLOW buttons resolved to provider
 * flows, then the provider. Stored PENDING with the provider's id; the review result arrives on the
 * provider's webhook (status.ts).
 */
export async function createTemplate(ctx: Ctx, input: TemplateCreateInput) {
  const { issues, shape } = validateTemplateComponents(input);
  if (!shape) throw invalidRequest("The template's components break the provider's rules: see issues.", issues);
  const channel = await templateChannelOf(ctx, input.channel_id);
  assertCanSubmit(channel);
  const components = await providerComponents(ctx, channel, input.components);
  await assertNew(ctx, input);
  const account = providerAccountOf(channel, ctx.settings);
  const submission: ProviderTemplateSubmission = {
    name: input.name,
    language: input.language,
    category: input.category,
    parameter_format: shape.parameter_format,
    components,
  };
  const submitted = await submitToProvider(ctx, account, submission);
  const category = TEMPLATE_CATEGORIES.find((c) => c === submitted.category) ?? input.category;
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(templates)
        .values({
          id: newId("template", ctx.now.getTime()),
          projectId: ctx.project.id,
          channelId: channel.id,
          metaTemplateId: submitted.id,
          name: input.name,
          language: input.language,
          // The provider may file a template under another category than asked (UTILITY → MARKETING): its word counts.
          category,
          parameterFormat: shape.parameter_format,
          // Whatever the submit answer says, the review result is taken from the webhook, which emits template.status.
          status: "PENDING",
          components: input.components,
          submittedAt: ctx.now,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .returning();
      await recordAudit(
        { ...ctx, db: tx },
        {
          action: "template.submitted",
          target: { type: "template", id: inserted!.id },
          details: { name: input.name, language: input.language, category, channel_id: channel.id },
        },
      );
      return inserted!;
    });
    return serializeTemplate(row);
  } catch (error) {
    if (!isUniqueViolation(error, "templates_channel_name_language")) throw error;
    // A concurrent create of the same template won the insert: take back this submission.
    await ctx.ports.provider.templates.remove(account, { name: input.name, metaTemplateId: submitted.id }).catch(() => undefined);
    throw exists(input);
  }
}

/**
 * The project's own channel (connected by it, or its channel_id), or the shared sandbox, which is
 * refused by readiness with its blocker. Another project's number is a 404 like any unknown id.
 */
async function templateChannelOf(ctx: Ctx, channelId: string): Promise<ChannelRow> {
  const channel = await getChannelRowOrThrow(ctx, channelId);
  if (channel.isSandbox) return channel;
  const owned = channel.projectId ? channel.projectId === ctx.project.id : ctx.project.channelId === channel.id;
  if (!owned) throw notFound("channel", channelId);
  return channel;
}

/** 422 off PLATFORM_A; 412 channel_not_ready with every blocker, since any blocker stops template submission. */
function assertCanSubmit(channel: ChannelRow): void {
  if (channel.platform !== "PLATFORM_A") {
    throw new SvcError("feature_unsupported_on_channel", `Templates are a PLATFORM_A feature; channel ${channel.id} is ${channel.platform}.`, {
      channel_id: channel.id,
      platform: channel.platform,
    });
  }
  const readiness = publishReadinessOf(channel);
  if (readiness?.can_submit_templates) return;
  const where = channel.isSandbox ? "The shared sandbox cannot submit templates: connect your own number" : "See blockers (GET /readiness explains each)";
  throw new SvcError("channel_not_ready", `Channel ${channel.id} cannot submit templates yet. ${where}.`, {
    channel_id: channel.id,
    blockers: readiness?.blockers ?? [],
  });
}

function exists(input: TemplateCreateInput): SvcError {
  return new SvcError(
    "template_exists",
    `Channel ${input.channel_id} already has a template '${input.name}' in ${input.language}. Use another name or language, or delete that template first.`,
    { channel_id: input.channel_id, name: input.name, language: input.language },
  );
}

/** Checked before the provider is called, so a duplicate costs no submission; the unique index settles races. */
async function assertNew(ctx: Ctx, input: TemplateCreateInput): Promise<void> {
  const [taken] = await ctx.db
    .select({ id: templates.id })
    .from(templates)
    .where(and(eq(templates.channelId, input.channel_id), eq(templates.name, input.name), eq(templates.language, input.language)))
    .limit(1);
  if (taken) throw exists(input);
}

/** A refusal (final) is 422 template_rejected with the provider's failure; no answer at all is 502 provider_error. */
async function submitToProvider(ctx: Ctx, account: ProviderAccount, submission: ProviderTemplateSubmission) {
  return providerCall(async () => {
    try {
      return await ctx.ports.provider.templates.submit(account, submission);
    } catch (error) {
      if (!ProviderError.is(error) || error.retryable) throw error;
      throw new SvcError("template_rejected", `The provider refused the template: ${error.failure.message}`, { failure: error.failure });
    }
  });
}
