import { exampleData } from "@/components/flow-render/bindings";
import { readScreen, screensOf } from "@/components/flow-render/flow-json-read";
import type { FlowAction } from "@/components/flow-render/screen-state";

/**
 * "Try it": the saved flow walked as a customer would, from its first screen. Each navigate carries
 * exactly the payload the screen sent (what the customer entered, nothing filled in for them), so the
 * completion shown at the end is the one the provider would send.
 */
export type Trial =
  | { at: "screen"; screenId: string; data: Record<string, unknown>; back: Array<{ screenId: string; data: Record<string, unknown> }> }
  | { at: "end"; kind: "complete" | "data_exchange"; payload: Record<string, unknown> };

/**
 * The first screen, with its declared `__example__` values as its data: they stand in for what a send
 * passes to the first screen (POST /flows/send `data`, or a data endpoint's INIT answer), which a
 * preview does not have. Later screens get only what the screens before them send.
 */
export function startTrial(flowJson: Record<string, unknown>): Trial | null {
  const first = screensOf(flowJson)[0];
  if (!first) return null;
  const screenId = String(first.id);
  return { at: "screen", screenId, data: exampleData(readScreen(flowJson, screenId)?.declaredData), back: [] };
}

/** The trial after a Footer or link press: the next screen with the payload as its data, or the end. */
export function advance(trial: Trial, action: FlowAction): Trial {
  if (trial.at !== "screen") return trial;
  if (action.name === "navigate") {
    return { at: "screen", screenId: action.next, data: action.payload, back: [...trial.back, { screenId: trial.screenId, data: trial.data }] };
  }
  return { at: "end", kind: action.name, payload: action.payload };
}

/** One screen back, with the data it was shown with. */
export function stepBack(trial: Trial): Trial {
  if (trial.at !== "screen" || trial.back.length === 0) return trial;
  return { at: "screen", ...trial.back.at(-1)!, back: trial.back.slice(0, -1) };
}
