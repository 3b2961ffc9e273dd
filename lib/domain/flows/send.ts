import { and, eq } from "drizzle-orm";
import { contacts, conversations, flowDispatches } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { SvcError, notFound } from "@/lib/errors";
import { getChannelRowOrThrow } from "@/lib/domain/channels";
import { sendMessage } from "@/lib/domain/messages/send";
import { flowButtonIndexFor } from "@/lib/domain/templates/send-check";
import type { OutboundContent } from "@/lib/ports/provider/outbound";
import { canonicalLocale, getFlowRow } from "./crud";
import { insertDispatch, newFlowToken, sendableVersion, type FlowVersionRow } from "./dispatch";
import { flowForKey } from "./locale";
import { screenIdsOf } from "./flow-json/screens";
import { serializeDispatch, type FlowDispatchRow, type FlowRow } from "./serialize";

/** POST /flows/send (docs/spec/decisions.md "Flows"). */
export interface FlowSendInput {
  channel_id: string;
  flow_id?: string | undefined;
  config_key?: string | undefined;
  conversation_id?: string | undefined;
  to?: string | undefined;
  contact_id?: string | undefined;
  locale?: string | undefined;
  body_text: string;
  flow_cta?: string | undefined;
  header_text?: string | undefined;
  footer_text?: string | undefined;
  screen?: string | undefined;
  data?: Record<string, unknown> | undefined;
  template?: { name: string; language: string } | undefined;
  idempotencyKey: string | null;
}

type Version = FlowVersionRow;

/**
 * Sends a published Flow as an interactive message (or, outside the 24 h window, as the named template
 * with a FLOW button) through the same path as POST /messages, so every send rule applies; the
 * dispatch is written in the message's transaction.
 */
export async function sendFlow(ctx: Ctx, input: FlowSendInput) {
  const channel = await getChannelRowOrThrow(ctx, input.channel_id);
  if (channel.platform !== "PLATFORM_A") {
    throw new SvcError("feature_unsupported_on_channel", `Flows are a PLATFORM_A feature; channel ${channel.id} is ${channel.platform}.`, {
      channel_id: channel.id,
      platform: channel.platform,
    });
  }
  const recipient = await recipientOf(ctx, input);
  const flow = input.flow_id
    ? await getFlowRow(ctx, input.flow_id)
    : await flowForKey(ctx, input.config_key!, canonicalLocale(input.locale), recipient.preferredLanguage);
  const version = await sendableVersion(ctx, flow, channel);
  const token = newFlowToken();
  const interactive = interactiveContent(input, flow, version, token);
  const written: { row: FlowDispatchRow | null } = { row: null };
  const send = (content: OutboundContent) =>
    sendMessage(ctx, {
      channel_id: channel.id,
      conversation_id: recipient.conversationId,
      to: recipient.to,
      message: { content },
      idempotencyKey: input.idempotencyKey,
      alongside: async (tx, message) => {
        written.row = await insertDispatch(tx, ctx, { flow, version, channel, token, message, to: recipient.to ?? null });
      },
    });
  let sent;
  try {
    sent = await send(interactive);
  } catch (error) {
    // Outside the window a Flow can only travel inside an approved template of the channel whose FLOW button opens it.
    if (!(SvcError.is(error) && error.code === "outside_messaging_window" && input.template)) throw error;
    const index = await flowButtonIndexFor(ctx, channel, input.template, flow);
    sent = await send(templateContent(input.template, index, token, input.data));
  }
  const dispatch = written.row ?? (await dispatchOfMessage(ctx, sent.id));
  return {
    ...serializeDispatch(dispatch),
    message_id: sent.id,
    idempotency_key: sent.idempotency_key,
    locale: dispatch.locale,
    flow_version: dispatch.flowVersion,
  };
}

interface Recipient {
  conversationId?: string | undefined;
  to?: string | undefined;
  preferredLanguage: string | null;
}

/** conversation_id, to, or contact_id (its conversation, else its phone); the contact's preferred_language for locale resolution. */
async function recipientOf(ctx: Ctx, input: FlowSendInput): Promise<Recipient> {
  if (input.to) {
    const [row] = await ctx.db
      .select({ language: contacts.preferredLanguage })
      .from(contacts)
      .where(and(eq(contacts.projectId, ctx.project.id), eq(contacts.phone, input.to.startsWith("+") ? input.to : `+${input.to}`)));
    return { to: input.to, preferredLanguage: row?.language ?? null };
  }
  const [row] = await ctx.db
    .select({ conversationId: conversations.id, contactId: contacts.id, phone: contacts.phone, language: contacts.preferredLanguage })
    .from(contacts)
    .leftJoin(conversations, and(eq(conversations.projectId, ctx.project.id), eq(conversations.contactId, contacts.id)))
    .where(
      and(eq(contacts.projectId, ctx.project.id), input.conversation_id ? eq(conversations.id, input.conversation_id) : eq(contacts.id, input.contact_id!)),
    );
  if (!row) throw input.conversation_id ? notFound("conversation", input.conversation_id) : notFound("contact", input.contact_id);
  if (row.conversationId) return { conversationId: row.conversationId, preferredLanguage: row.language };
  if (row.phone) return { to: row.phone, preferredLanguage: row.language };
  throw new SvcError("unprocessable", `Contact ${row.contactId} has no conversation and no phone number to start one.`, { contact_id: row.contactId });
}

function interactiveContent(input: FlowSendInput, flow: FlowRow, version: Version, token: string): OutboundContent {
  const exchange = flow.runtimeMode === "DATA_EXCHANGE";
  const screens = screenIdsOf(version.flowJson);
  if (input.screen && !screens.includes(input.screen)) {
    throw new SvcError("invalid_request", `screen '${input.screen}' is not a screen of flow ${flow.id} (version ${version.version}).`, {
      issues: { screen: [`One of: ${screens.join(", ")}.`] },
    });
  }
  return {
    kind: "interactive",
    interactive: {
      type: "flow",
      body: input.body_text,
      ...(input.header_text ? { header: { type: "text" as const, text: input.header_text } } : {}),
      ...(input.footer_text ? { footer: input.footer_text } : {}),
      flow: {
        flow_id: version.metaFlowId,
        flow_token: token,
        flow_cta: input.flow_cta ?? "Open",
        flow_action: exchange ? "data_exchange" : "navigate",
        ...(exchange ? {} : { screen: input.screen ?? screens[0]!, ...(input.data ? { data: input.data } : {}) }),
      },
    },
  };
}

function templateContent(
  template: { name: string; language: string },
  index: number,
  token: string,
  data: Record<string, unknown> | undefined,
): OutboundContent {
  const action: Record<string, unknown> = { flow_token: token, ...(data ? { flow_action_data: data } : {}) };
  return {
    kind: "template",
    template: {
      name: template.name,
      language: template.language,
      components: [{ type: "button", sub_type: "flow", index: String(index), parameters: [{ type: "action", action }] }],
    },
  };
}

/** A replayed send (same idempotency key): the dispatch its first send wrote. */
async function dispatchOfMessage(ctx: Ctx, messageId: string) {
  const [row] = await ctx.db
    .select()
    .from(flowDispatches)
    .where(and(eq(flowDispatches.projectId, ctx.project.id), eq(flowDispatches.messageId, messageId)));
  if (!row) throw new SvcError("idempotency_key_reused", "This idempotency key was used for a message that is not a Flow send. Use a new key.");
  return row;
}
