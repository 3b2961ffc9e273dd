import { isRecord } from "@/lib/json";
import { and, eq, inArray, or } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import type { ChannelRow } from "@/lib/domain/channels/sandbox";
import type { FlowRow } from "@/lib/domain/flows/serialize";
import { invalidRequest } from "@/lib/errors";
import { addIssue, upper, type Issues } from "@/lib/shared/templates/types";

type Component = Record<string, unknown>;

/** A FLOW button of the request: where it is, and how it names its flow. */
interface FlowReference {
  component: number;
  button: number;
  key: "flow_id" | "flow_name";
  value: string;
}

/**
 * The components as the provider takes them: every FLOW button names the provider flow of one of
 * the project's flows (docs/spec/decisions.md "Templates"), by our flow_id or by the flow's name.
 * The flow must be PUBLISHED under this channel's business account, since the provider resolves
 * the button's flow inside the template's account. Anything else is a 400 with issues by path.
 * Components without FLOW buttons come back unchanged; the caller stores what was sent.
 */
export async function providerComponents(ctx: Ctx, channel: ChannelRow, components: Component[]): Promise<Component[]> {
  const references = flowReferences(components);
  if (references.length === 0) return components;
  const candidates = await flowsNamed(ctx, references);
  const issues: Issues = {};
  const resolved = new Map<FlowReference, string>();
  for (const reference of references) {
    const found = judgeReference(reference, candidates, channel);
    const path = `components.${reference.component}.buttons.${reference.button}.${reference.key}`;
    if ("issue" in found) addIssue(issues, path, found.issue);
    else resolved.set(reference, found.metaFlowId);
  }
  if (Object.keys(issues).length > 0) throw invalidRequest("A FLOW button names a flow the template cannot use: see issues.", issues);
  return components.map((component, i) => {
    const mine = references.filter((reference) => reference.component === i);
    if (mine.length === 0) return component;
    const buttons = (component.buttons as unknown[]).map((button, j) => {
      const reference = mine.find((r) => r.button === j);
      if (!reference || !isRecord(button)) return button;
      const { flow_id: _ours, flow_name: _name, ...rest } = button;
      return { ...rest, flow_id: resolved.get(reference)! };
    });
    return { ...component, buttons };
  });
}

function flowReferences(components: Component[]): FlowReference[] {
  const references: FlowReference[] = [];
  components.forEach((component, i) => {
    if (upper(component.type) !== "BUTTONS" || !Array.isArray(component.buttons)) return;
    component.buttons.forEach((button: unknown, j) => {
      if (!isRecord(button) || upper(button.type) !== "FLOW") return;
      const key = typeof button.flow_id === "string" ? "flow_id" : "flow_name";
      references.push({ component: i, button: j, key, value: String(button[key]) });
    });
  });
  return references;
}

async function flowsNamed(ctx: Ctx, references: FlowReference[]): Promise<FlowRow[]> {
  const ids = references.filter((r) => r.key === "flow_id").map((r) => r.value);
  const names = references.filter((r) => r.key === "flow_name").map((r) => r.value);
  return ctx.db
    .select()
    .from(flows)
    .where(
      and(eq(flows.projectId, ctx.project.id), or(ids.length ? inArray(flows.id, ids) : undefined, names.length ? inArray(flows.name, names) : undefined)),
    );
}

/** The provider flow a button may open, or why it cannot. Flow names are not unique: a name must pick one usable flow. */
function judgeReference(reference: FlowReference, candidates: FlowRow[], channel: ChannelRow): { metaFlowId: string } | { issue: string } {
  const byId = reference.key === "flow_id";
  const named = candidates.filter((flow) => (byId ? flow.id : flow.name) === reference.value);
  const what = byId ? `flow ${reference.value}` : `the flow named '${reference.value}'`;
  if (named.length === 0)
    return { issue: byId ? `No flow with id '${reference.value}' in this project.` : `No flow named '${reference.value}' in this project.` };
  const published = named.filter((flow) => flow.status === "PUBLISHED" && flow.metaFlowId);
  if (published.length === 0) return { issue: `${capitalize(what)} is ${named[0]!.status}: publish it first (POST /flows/{id}/publish).` };
  const usable = published.filter((flow) => flow.metaWabaId === channel.businessAccountId);
  if (usable.length === 0) {
    return {
      issue: `${capitalize(what)} is published under business account ${published[0]!.metaWabaId}, not this channel's (${channel.businessAccountId}): publish it while this channel is the project's.`,
    };
  }
  if (usable.length > 1) return { issue: `${usable.length} published flows are named '${reference.value}': name the one you mean by flow_id.` };
  return { metaFlowId: usable[0]!.metaFlowId! };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
