import { and, eq } from "drizzle-orm";
import { flows } from "@/lib/db/schema";
import { setHandoff } from "@/lib/domain/conversations";
import { sendFlow } from "@/lib/domain/flows/send";
import { sendMessage } from "@/lib/domain/messages/send";
import type { OutboundContent } from "@/lib/ports/provider/outbound";
import { stepKind, type AutomationStep } from "./definition";
import { renderText, type RenderScope } from "./render";
import { runFunctionStep } from "./step-function";
import { StepFailure, stepMessageKey, type StepOutcome, type StepScope } from "./step-types";

/** A send_flow step without body_text: the Flow message needs a body. */
const DEFAULT_FLOW_BODY = "Tap the button below to continue.";
const DEFAULT_WAIT_REPLY_HOURS = 24;

type Step<K extends keyof AutomationStep> = NonNullable<AutomationStep[K]>;

/** One step of a run (docs/spec/decisions.md "Automations": Steps). Failures throw (StepFailure or the verb's SvcError). */
export async function executeStep(scope: StepScope, step: AutomationStep): Promise<StepOutcome> {
  const kind = stepKind(step);
  switch (kind) {
    case "send_reply":
      return sendReply(scope, step.send_reply!);
    case "delay":
      return { kind: "wait", until: new Date(scope.ctx.now.getTime() + step.delay!.minutes * 60_000) };
    case "wait_reply":
      return { kind: "wait", until: new Date(scope.ctx.now.getTime() + (step.wait_reply!.timeout_hours ?? DEFAULT_WAIT_REPLY_HOURS) * 3600_000) };
    case "pause_replies":
      return pauseReplies(scope, step.pause_replies!);
    case "send_flow":
      return sendFlowStep(scope, step.send_flow!);
    case "run_function":
      return runFunctionStep(scope, step.run_function!, (text) => sendInternal(scope, { kind: "text", text }));
  }
}

function renderScopeOf(scope: StepScope): RenderScope {
  return { contact: scope.contact, message: { text: scope.message.text }, vars: scope.run.variables };
}

async function sendReply(scope: StepScope, step: Step<"send_reply">): Promise<StepOutcome> {
  const text = renderText(step.text, renderScopeOf(scope)).trim();
  if (!text) throw new StepFailure("empty_reply", "The reply's text is empty once its placeholders are filled; nothing was sent.");
  const buttons = step.buttons ?? [];
  const messageId = await sendInternal(
    scope,
    buttons.length > 0
      ? { kind: "interactive", interactive: { type: "button", body: text, buttons: buttons.map(({ id, title }) => ({ id, title })) } }
      : { kind: "text", text },
  );
  return { kind: "next", products: { messageId } };
}

/**
 * An automation's send: an internal send (it waits for the pair slot in the queue, never a 429) with
 * every other rule of POST /messages (window, handoff, opt-in), keyed by run and step. Returns the
 * message's id (a repeated step gets its first message's).
 */
async function sendInternal(scope: StepScope, content: OutboundContent): Promise<string> {
  const sent = await sendMessage(scope.ctx, {
    channel_id: scope.run.channelId,
    conversation_id: scope.run.conversationId,
    message: { content },
    idempotencyKey: stepMessageKey(scope.run, scope.run.stepIndex),
    internal: true,
  });
  return sent.id;
}

function pauseReplies(scope: StepScope, step: Step<"pause_replies">): StepOutcome {
  return {
    kind: "complete",
    alongside: async (tx) => {
      await setHandoff({ ...scope.ctx, db: tx }, scope.run.conversationId, { enabled: true, reason: step.reason ?? null });
    },
  };
}

async function sendFlowStep(scope: StepScope, step: Step<"send_flow">): Promise<StepOutcome> {
  const { ctx, run } = scope;
  const render = (text: string | undefined) => (text === undefined ? undefined : renderText(text, renderScopeOf(scope)).trim() || undefined);
  // `flow` is a flow id or a config key; a key may look like an id (`flow_...`), so the id is tried first.
  const [byId] = await ctx.db
    .select({ id: flows.id })
    .from(flows)
    .where(and(eq(flows.projectId, ctx.project.id), eq(flows.id, step.flow)))
    .limit(1);
  const sent = await sendFlow(ctx, {
    channel_id: run.channelId,
    conversation_id: run.conversationId,
    ...(byId ? { flow_id: byId.id } : { config_key: step.flow }),
    body_text: render(step.body_text) ?? DEFAULT_FLOW_BODY,
    flow_cta: step.flow_cta,
    header_text: render(step.header_text),
    footer_text: render(step.footer_text),
    idempotencyKey: stepMessageKey(run, run.stepIndex),
  });
  return { kind: "next", products: { messageId: sent.message_id } };
}
