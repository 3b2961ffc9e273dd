/**
 * A template send (POST /messages `template`, and POST /flows/send outside the window), per
 * docs/spec/decisions.md "Templates" → Sending: the template is one of the sending channel's (by
 * {id} or {name, language}; anything else is 404), it is APPROVED (409 template_not_approved with
 * template_status), and the send's components fit it (422 template_parameters_invalid with issues).
 * A FLOW button the send gives no flow_token gets a fresh token and a dispatch, written with the
 * message, so its completion is recorded like any Flow send's.
 */
import { and, eq } from "drizzle-orm";
import { flows, templates } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { SendInput } from "@/lib/domain/messages/send";
import { insertDispatch, newFlowToken, sendableVersion, type FlowVersionRow } from "@/lib/domain/flows/dispatch";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import { SvcError } from "@/lib/errors";
import { isRecord } from "@/lib/json";
import type { OutboundMessage, TemplateContent } from "@/lib/ports/provider/outbound";
import { checkTemplateParameters, needsFlowToken } from "@/lib/shared/templates/parameters";
import type { TemplateRow } from "./serialize";
import { upper } from "@/lib/shared/templates/types";
import { templateShape } from "@/lib/shared/templates/validate";

type Alongside = NonNullable<SendInput["alongside"]>;

/** A FLOW button this send mints a token for: the flow it opens and the version the dispatch records. */
interface MintedFlowButton {
  index: number;
  flow: FlowRow;
  version: FlowVersionRow;
  token: string;
}

/**
 * What sendMessage writes for `input`: a template message becomes {name, language, components} as the
 * provider takes it (tokens minted), with the dispatches of its FLOW buttons written alongside the
 * caller's own writes. Any other message is not the template's to prepare (null).
 */
export async function resolveTemplateSend(
  ctx: Ctx,
  channel: ChannelRow,
  input: SendInput,
): Promise<{ message: OutboundMessage; alongside: Alongside | null } | null> {
  const theirs = input.alongside ?? null;
  if (input.message.content.kind !== "template") return null;
  const sent = input.message.content.template;
  const row = await approvedTemplateOf(ctx, channel, sent);
  const shape = templateShape(row.components, { parameter_format: row.parameterFormat });
  const { issues } = checkTemplateParameters(shape, sent.components);
  if (Object.keys(issues).length > 0) {
    throw new SvcError(
      "template_parameters_invalid",
      `The components do not fit template ${row.id} ('${row.name}', ${row.language}): see issues. GET /templates/${row.id} shows its components.`,
      { template_id: row.id, issues },
    );
  }
  const minted: MintedFlowButton[] = [];
  for (const index of needsFlowToken(sent.components, shape)) {
    const flow = await flowOfButton(ctx, channel, row, index);
    minted.push({ index, flow, version: await sendableVersion(ctx, flow, channel), token: newFlowToken() });
  }
  const components = withFlowTokens(sent.components, minted);
  // The id is not kept: the provider names a template by name and language, and so does the Message.
  const template: TemplateContent = { name: row.name, language: row.language, ...(components ? { components } : {}) };
  const message: OutboundMessage = { ...input.message, content: { kind: "template", template } };
  if (minted.length === 0) return { message, alongside: theirs };
  const to = input.to ?? null;
  const ours: Alongside = async (tx, written) => {
    for (const button of minted) await insertDispatch(tx, ctx, { ...button, channel, message: written, to });
  };
  if (!theirs) return { message, alongside: ours };
  return {
    message,
    alongside: async (tx, written) => {
      await ours(tx, written);
      await theirs(tx, written);
    },
  };
}

/**
 * The index of the template's FLOW button that opens `flow` (POST /flows/send outside the window): the
 * template must be the channel's and APPROVED, like any template send.
 */
export async function flowButtonIndexFor(ctx: Ctx, channel: ChannelRow, reference: { name: string; language: string }, flow: FlowRow): Promise<number> {
  const row = await approvedTemplateOf(ctx, channel, reference);
  const index = buttonsOf(row).findIndex(
    (button) =>
      isRecord(button) && upper(button.type) === "FLOW" && (button.flow_id === flow.id || (button.flow_id === undefined && button.flow_name === flow.name)),
  );
  if (index >= 0) return index;
  throw new SvcError(
    "template_parameters_invalid",
    `Template '${row.name}' (${row.language}) has no FLOW button that opens flow ${flow.id}: send it with a template whose FLOW button names this flow.`,
    { template_id: row.id, issues: { template: [`No FLOW button opens flow ${flow.id}.`] } },
  );
}

/** The sending channel's template named by {id} or {name, language}, if APPROVED. */
export async function approvedTemplateOf(ctx: Ctx, channel: ChannelRow, reference: TemplateContent): Promise<TemplateRow> {
  const row = await channelTemplateOf(ctx, channel, reference);
  if (row.status !== "APPROVED") {
    throw new SvcError("template_not_approved", `Template ${row.id} ('${row.name}', ${row.language}) is ${row.status}: ${NOT_APPROVED[row.status]}`, {
      template_id: row.id,
      template_status: row.status,
    });
  }
  return row;
}

/** The channel's template named by {id} or {name, language}, whatever its review status; else 404. */
export async function channelTemplateOf(ctx: Ctx, channel: ChannelRow, reference: Pick<TemplateContent, "id" | "name" | "language">): Promise<TemplateRow> {
  const byId = reference.id !== undefined;
  const [row] = await ctx.db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.projectId, ctx.project.id),
        eq(templates.channelId, channel.id),
        byId ? eq(templates.id, reference.id!) : and(eq(templates.name, reference.name ?? ""), eq(templates.language, reference.language ?? "")),
      ),
    );
  if (!row) throw unknownTemplate(channel, reference);
  return row;
}

const NOT_APPROVED: Record<TemplateRow["status"], string> = {
  PENDING: "the provider is still reviewing it. Send it once it is APPROVED (the template.status event says when).",
  REJECTED: "the provider rejected it (GET /templates/{id} shows rejection_reason). Fix it and submit it again (POST /templates).",
  PAUSED: "the provider paused it after poor customer feedback. Send another template until the pause ends.",
  DISABLED: "the provider disabled it after repeated poor feedback. Submit a new template (POST /templates).",
  APPROVED: "",
};

function unknownTemplate(channel: ChannelRow, reference: Pick<TemplateContent, "id" | "name" | "language">): SvcError {
  const list = `GET /templates?channel_id=${channel.id} lists the templates it can send.`;
  if (reference.id !== undefined) {
    return new SvcError("not_found", `No template with id '${reference.id}' on channel ${channel.id}. ${list}`, {
      issues: { "template.id": ["Unknown template."] },
    });
  }
  return new SvcError("not_found", `Channel ${channel.id} has no template '${reference.name}' in ${reference.language}. ${list}`, {
    issues: { "template.name": [`No template '${reference.name}' in ${reference.language} on this channel.`] },
  });
}

function buttonsOf(row: TemplateRow): unknown[] {
  const component = row.components.find((c) => upper(c.type) === "BUTTONS");
  return Array.isArray(component?.buttons) ? component.buttons : [];
}

/**
 * The flow a FLOW button names, by our flow_id or by name. Names are not unique: the one published
 * under the channel's account wins, as it did when the template was submitted (flow-buttons.ts).
 */
async function flowOfButton(ctx: Ctx, channel: ChannelRow, row: TemplateRow, index: number): Promise<FlowRow> {
  const button = buttonsOf(row)[index];
  const id = isRecord(button) && typeof button.flow_id === "string" ? button.flow_id : null;
  const name = isRecord(button) && typeof button.flow_name === "string" ? button.flow_name : null;
  const candidates = await ctx.db
    .select()
    .from(flows)
    .where(and(eq(flows.projectId, ctx.project.id), id !== null ? eq(flows.id, id) : eq(flows.name, name ?? "")));
  const flow = candidates.find((f) => f.status === "PUBLISHED" && f.metaWabaId === channel.businessAccountId) ?? candidates[0];
  if (flow) return flow;
  throw new SvcError(
    "flow_not_sendable",
    `Button ${index} of template ${row.id} opens ${id !== null ? `flow ${id}` : `the flow named '${name}'`}, which is no longer in this project.`,
    { reason: "FLOW_NOT_FOUND", flow_id: id, meta_status: null },
  );
}

/** The send's components with a token in each minted FLOW button: the given action completed, or the whole button added. */
function withFlowTokens(components: Record<string, unknown>[] | undefined, minted: MintedFlowButton[]): Record<string, unknown>[] | undefined {
  if (minted.length === 0) return components;
  const out = [...(components ?? [])];
  for (const { index, token } of minted) {
    const at = out.findIndex((c) => String(c.type).toLowerCase() === "button" && buttonIndex(c.index) === index);
    const given = at >= 0 ? out[at]! : null;
    const parameter = given && Array.isArray(given.parameters) && isRecord(given.parameters[0]) ? given.parameters[0] : { type: "action" };
    const action = isRecord(parameter.action) ? parameter.action : {};
    const button = {
      ...(given ?? { type: "button", sub_type: "flow", index: String(index) }),
      parameters: [{ ...parameter, action: { ...action, flow_token: token } }],
    };
    if (at >= 0) out[at] = button;
    else out.push(button);
  }
  return out;
}

/** The provider takes a button index as a number or a digit string (as parameters.ts reads it). */
function buttonIndex(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  return typeof value === "string" && /^\d+$/.test(value) ? Number(value) : undefined;
}
