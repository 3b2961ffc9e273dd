import { loadRunnable, runFunction } from "@/lib/domain/functions/run";
import type { AutomationStep } from "./definition";
import { StepFailure, type StepOutcome, type StepScope } from "./step-types";

type RunFunctionStep = NonNullable<AutomationStep["run_function"]>;

/**
 * run_function (docs/spec/decisions.md "Automations"): the deployed active function runs with the
 * message event plus the run's `variables` (logged as event_type `automation`). A run that ends in
 * error fails the step. result_mode: `reply` sends the result (a string, or the value at reply_field,
 * default `text`) as a text reply; `variables` stores it under variable_name, or merges an object
 * result's keys when there is no name (any other result lands in `vars.result`); `side_effect`
 * (the default) ignores it.
 */
export async function runFunctionStep(scope: StepScope, step: RunFunctionStep, sendText: (text: string) => Promise<string>): Promise<StepOutcome> {
  const { ctx, run, automation } = scope;
  const runnable = await loadRunnable(ctx, step.function);
  const event = {
    type: "message",
    trigger: automation.trigger.type,
    text: scope.message.text ?? "",
    message_id: scope.message.id,
    contact: scope.contact,
    conversation_id: run.conversationId,
    channel_id: run.channelId,
    automation_id: automation.id,
    automation_key: automation.key,
    run_id: run.id,
    variables: run.variables,
  };
  const outcome = await runFunction(ctx, runnable, { eventType: "automation", event });
  const invocationId = outcome.invocation_id;
  if (outcome.status === "error") {
    throw new StepFailure("function_error", `Function ${runnable.fn.slug} failed (invocation ${invocationId}): ${outcome.error ?? "unknown error"}`, {
      invocationId,
    });
  }
  const mode = step.result_mode ?? "side_effect";
  if (mode === "reply") {
    const text = replyTextOf(outcome.result, step.reply_field ?? "text", runnable.fn.slug, invocationId);
    return { kind: "next", products: { invocationId, messageId: await sendText(text) } };
  }
  if (mode === "variables")
    return { kind: "next", variables: { ...run.variables, ...variablesOf(outcome.result, step.variable_name) }, products: { invocationId } };
  return { kind: "next", products: { invocationId } };
}

function replyTextOf(result: unknown, field: string, slug: string, invocationId: string): string {
  const value = typeof result === "string" ? result : isObject(result) ? result[field] : undefined;
  const text = typeof value === "string" ? value.trim() : typeof value === "number" || typeof value === "boolean" ? String(value) : "";
  if (!text) {
    throw new StepFailure(
      "function_result_invalid",
      `Function ${slug} returned no reply: result_mode reply needs a non-empty string, or an object whose '${field}' is one.`,
      { invocationId },
    );
  }
  return text;
}

function variablesOf(result: unknown, name: string | undefined): Record<string, unknown> {
  if (name) return { [name]: result ?? null };
  if (isObject(result)) return result;
  return { result: result ?? null };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
