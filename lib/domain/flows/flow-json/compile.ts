import { dataDeclaration, fieldComponent } from "./compile-components";
import { orderScreens, type OrderedScreen } from "./draft-order";
import { DATA_API_VERSION, FLOW_JSON_VERSION } from "./limits";
import type { Draft, DraftField, FlowJson } from "./types";

export type RuntimeMode = "STATIC" | "DATA_EXCHANGE";

export interface CompileOptions {
  runtimeMode?: RuntimeMode;
}

const DEFAULT_NEXT_LABEL = "Continue";
const DEFAULT_SUBMIT_LABEL = "Submit";

/**
 * The draft as Flow JSON 7.3 (docs/spec/decisions.md "Flows"). Screens come in navigation order (entry
 * screen first). STATIC: a screen with `next` navigates there with every value so far (its own fields
 * as `${form.x}`, earlier ones as `${data.x}`), and the target declares those names in its `data`.
 * DATA_EXCHANGE: the same payload goes to the endpoint (`data_exchange`), which answers with the next
 * screen and its data; `routing_model` lists the moves it may make. Either way a terminal screen
 * completes with every field of the flow, so the completion message carries the whole submission.
 * Pure and deterministic: the same draft gives identical JSON. Run validateDraft first: a draft with
 * findings compiles to JSON with the same problems.
 */
export function compileDraft(draft: Draft, options: CompileOptions = {}): FlowJson {
  const mode = options.runtimeMode ?? "STATIC";
  const ordered = orderScreens(draft);
  const screens = ordered.map((entry) => compileScreen(entry, mode));
  if (mode === "STATIC") return { version: FLOW_JSON_VERSION, screens };
  return { version: FLOW_JSON_VERSION, data_api_version: DATA_API_VERSION, routing_model: routingModel(ordered), screens };
}

function routingModel(ordered: OrderedScreen[]): Record<string, string[]> {
  const model: Record<string, string[]> = {};
  for (const { screen } of ordered) model[screen.id] = screen.next === undefined ? [] : [screen.next];
  return model;
}

/** Every value so far: carried ones from the screen's data, its own from the form. */
function payloadOf(carried: DraftField[], own: DraftField[]): Record<string, string> {
  const payload: Record<string, string> = {};
  for (const field of carried) payload[field.name] = `\${data.${field.name}}`;
  for (const field of own) payload[field.name] = `\${form.${field.name}}`;
  return payload;
}

function footerAction(entry: OrderedScreen, mode: RuntimeMode): Record<string, unknown> {
  const { screen, carried } = entry;
  const payload = payloadOf(carried, screen.fields);
  if (screen.next === undefined) return { name: "complete", payload };
  if (mode === "DATA_EXCHANGE") return { name: "data_exchange", payload };
  return { name: "navigate", next: { type: "screen", name: screen.next }, payload };
}

function compileScreen(entry: OrderedScreen, mode: RuntimeMode): Record<string, unknown> {
  const { screen, carried } = entry;
  const terminal = screen.next === undefined;
  const children: Array<Record<string, unknown>> = [];
  if (screen.body !== undefined && screen.body.trim() !== "") children.push({ type: "TextBody", text: screen.body });
  for (const field of screen.fields) children.push(fieldComponent(field));
  children.push({
    type: "Footer",
    label: screen.submit_label ?? (terminal ? DEFAULT_SUBMIT_LABEL : DEFAULT_NEXT_LABEL),
    "on-click-action": footerAction(entry, mode),
  });
  const compiled: Record<string, unknown> = { id: screen.id, title: screen.title };
  if (terminal) {
    compiled.terminal = true;
    compiled.success = true;
  }
  if (carried.length > 0) compiled.data = Object.fromEntries(carried.map((field) => [field.name, dataDeclaration(field)]));
  compiled.layout = { type: "SingleColumnLayout", children };
  return compiled;
}
