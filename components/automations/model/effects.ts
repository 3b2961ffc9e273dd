import type { AutomationEntry } from "./draft";
import { triggerSummary } from "./summaries";

/**
 * What a write does to live traffic, in words, shown before it happens (issue 34: nothing that acts
 * on live traffic happens without the operator seeing what it will do).
 */

const steps = (count: number) => `${count} ${count === 1 ? "step" : "steps"}`;
// The project's routing decides whether any of this fires (decisions.md "Automations (routing FLOWS)").
const WHERE = "Only where routing is Flows; never while a person has the conversation.";

function behaviour(entry: Pick<AutomationEntry, "trigger" | "steps">): string {
  const trigger = triggerSummary(entry.trigger);
  return `${trigger.charAt(0).toUpperCase()}${trigger.slice(1)}, it runs ${steps(entry.steps.length)}.`;
}

export function saveEffect(entry: AutomationEntry, before: { active: boolean } | null): string {
  const name = `“${entry.name || entry.key}”`;
  if (!entry.active) {
    if (before?.active) return `This switches ${name} off: new messages no longer start it; runs already going carry on.`;
    return `${name} is off: saving changes nothing customers see until it is switched on.`;
  }
  if (!before) return `Once created, ${name} answers live customers at once. ${behaviour(entry)} ${WHERE}`;
  if (!before.active) return `This switches ${name} on: it starts answering live customers. ${behaviour(entry)} ${WHERE}`;
  return `${name} is on: the change applies to the next message at once. ${behaviour(entry)} Runs already going continue with the saved steps.`;
}

export function activeEffect(entry: Pick<AutomationEntry, "name" | "key" | "trigger" | "steps">, active: boolean): string {
  const name = `“${entry.name || entry.key}”`;
  if (!active) return `This switches ${name} off: new messages no longer start it; runs already going carry on.`;
  return `This switches ${name} on: it starts answering live customers. ${behaviour(entry)} ${WHERE}`;
}

export function deleteEffect(entry: Pick<AutomationEntry, "name" | "key" | "active">): string {
  const name = `“${entry.name || entry.key}”`;
  return `${name} and its run history are deleted${entry.active ? "; new messages no longer start it" : ""}. A config document that still lists it would create it again.`;
}

export function moveEffect(entry: Pick<AutomationEntry, "name" | "key">, from: number, to: number, count: number): string {
  const name = `“${entry.name || entry.key}”`;
  const place = to === 0 ? "first" : to === count - 1 ? "last" : `number ${to + 1} of ${count}`;
  return `${name} moves from number ${from + 1} to ${place}. When two keyword automations match one message, the one higher in the list runs.`;
}
