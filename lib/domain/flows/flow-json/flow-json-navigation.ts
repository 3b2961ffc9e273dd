import { finding } from "./finding";
import { dynamicRef, isRecord, navigateTarget, type ActionAt, type FlowView, type Json, type ScreenView } from "./flow-json-read";
import { child } from "./pointer";
import type { FlowFinding, FlowJson } from "./types";

/**
 * Navigation rules of a Flow JSON (docs/spec/decisions.md "Flows"): actions are well formed, navigate
 * targets exist, payloads match what the target screen declares and refer to real inputs and data,
 * every terminal screen completes, and navigation only moves forward (no loops).
 */

const ACTION_NAMES: ReadonlySet<string> = new Set(["navigate", "complete", "data_exchange", "update_data", "open_url"]);

export function actionFindings(view: FlowView): FlowFinding[] {
  return view.screens.flatMap((screen) => screen.actions.flatMap((at) => oneAction(view, screen, at)));
}

function oneAction(view: FlowView, screen: ScreenView, at: ActionAt): FlowFinding[] {
  const name = at.action.name;
  if (typeof name !== "string" || !ACTION_NAMES.has(name)) {
    return [
      finding(
        "INVALID_FLOW_JSON",
        child(at.path, "name"),
        `Action name ${JSON.stringify(name)} is not one the provider knows.`,
        "Use navigate, complete or data_exchange.",
      ),
    ];
  }
  const found = payloadReferenceFindings(screen, at);
  if (name === "data_exchange" && !view.endpoint) {
    found.push(
      finding(
        "INVALID_FLOW_JSON",
        child(at.path, "name"),
        "A data_exchange action needs an endpoint flow, and this Flow JSON has no data_api_version.",
        'Add "data_api_version": "3.0" (and a routing_model), or use navigate.',
      ),
    );
  }
  if (name !== "navigate") return found;
  const target = navigateTarget(at.action);
  if (target === null) {
    return [
      ...found,
      finding("INVALID_FLOW_JSON", child(at.path, "next"), 'A navigate action needs next: {type: "screen", name}.', "Name the screen to go to."),
    ];
  }
  const next = view.byId.get(target);
  if (!next) {
    return [
      ...found,
      finding("UNKNOWN_SCREEN", child(at.path, "next", "name"), `navigate goes to '${target}', which is not a screen of the flow.`, "Name an existing screen."),
    ];
  }
  return [...found, ...payloadMatchFindings(at, next)];
}

/** `${form.x}` must name an input of this screen, `${data.x}` a key it declares in `data`. */
function payloadReferenceFindings(screen: ScreenView, at: ActionAt): FlowFinding[] {
  const payload = at.action.payload;
  if (payload === undefined) return [];
  if (!isRecord(payload))
    return [finding("INVALID_FLOW_JSON", child(at.path, "payload"), "An action payload must be an object.", "Make payload an object of values.")];
  const inputs = new Set(screen.components.map((c) => c.component.name).filter((n): n is string => typeof n === "string"));
  const found: FlowFinding[] = [];
  for (const [key, value] of Object.entries(payload)) {
    const ref = dynamicRef(value);
    if (!ref) continue;
    const known = ref.source === "form" ? inputs.has(ref.name) : screen.dataKeys.includes(ref.name);
    if (known) continue;
    const where = ref.source === "form" ? "no input of this screen has that name" : "the screen does not declare it in data";
    found.push(
      finding(
        "PAYLOAD_MISMATCH",
        child(at.path, "payload", key),
        `Payload key '${key}' refers to ${ref.source}.${ref.name}, but ${where}.`,
        ref.source === "form" ? "Refer to an input of this screen." : `Declare ${ref.name} in the screen's data, or pass it from the screen before.`,
      ),
    );
  }
  return found;
}

/** A navigate payload carries exactly the data the target screen declares. */
function payloadMatchFindings(at: ActionAt, target: ScreenView): FlowFinding[] {
  const payload = isRecord(at.action.payload) ? at.action.payload : {};
  const keys = Object.keys(payload);
  const found: FlowFinding[] = [];
  for (const key of keys) {
    if (target.dataKeys.includes(key)) continue;
    found.push(
      finding(
        "PAYLOAD_MISMATCH",
        child(at.path, "payload", key),
        `navigate passes '${key}' to screen '${target.id}', which does not declare it in its data.`,
        `Declare ${key} in the data of '${target.id}', or remove it from the payload.`,
      ),
    );
  }
  const missing = target.dataKeys.filter((key) => !keys.includes(key));
  if (missing.length > 0) {
    found.push(
      finding(
        "PAYLOAD_MISMATCH",
        child(at.path, "payload"),
        `Screen '${target.id}' declares ${missing.join(", ")} in its data, but this navigate does not pass ${missing.length === 1 ? "it" : "them"}.`,
        "Pass every declared value in the payload, or remove the declaration.",
      ),
    );
  }
  return found;
}

/**
 * Every terminal screen has a Footer that completes; an endpoint flow's terminal screen may also hand
 * its values to the endpoint (data_exchange), which then answers with the provider's SUCCESS screen. A
 * non-terminal screen on the way through (the first one, or one a Footer leads to) needs a way forward;
 * a screen an OptIn or a link opens to "read more" is left by going back, so it needs none.
 */
export function terminalFindings(view: FlowView): FlowFinding[] {
  const onTheWay = new Set(view.screens.slice(0, 1).map((s) => s.id));
  for (const screen of view.screens) {
    for (const at of screen.actions) if (at.component.type === "Footer" && at.action.name === "navigate") onTheWay.add(navigateTarget(at.action));
  }
  return view.screens.flatMap((screen) => {
    if (!screen.laidOut) return [];
    const footer = screen.components.find((c) => c.type === "Footer");
    const name = `Screen '${screen.id ?? screen.index}'`;
    const childrenPath = child(screen.path, "layout", "children");
    if (screen.screen.terminal !== true) {
      if (!onTheWay.has(screen.id) || footer || screen.actions.some((a) => a.action.name === "navigate" || a.action.name === "data_exchange")) return [];
      return [
        finding("MISSING_FOOTER", childrenPath, `${name} has no Footer and no other way forward.`, "Add a Footer whose action navigates to the next screen."),
      ];
    }
    if (!footer) return [finding("MISSING_FOOTER", childrenPath, `${name} is terminal but has no Footer.`, "Add a Footer whose on-click-action is complete.")];
    const action = footer.component["on-click-action"];
    const actionName = isRecord(action) ? action.name : undefined;
    if (actionName === "complete" || (view.endpoint && actionName === "data_exchange")) return [];
    return [
      finding(
        "TERMINAL_WITHOUT_COMPLETE",
        child(footer.path, "on-click-action"),
        `${name} is terminal, but its Footer does not complete the flow.`,
        'Set the Footer\'s on-click-action to {"name": "complete", "payload": {...}} with the values to submit.',
      ),
    ];
  });
}

interface Edge {
  from: string;
  to: string;
  path: string;
}

/** routing_model: {screen: [screens it may go to]}, every name a screen of the flow. */
export function routingFindings(json: FlowJson, view: FlowView): FlowFinding[] {
  const model = json.routing_model;
  if (model === undefined) return [];
  if (!isRecord(model))
    return [finding("INVALID_FLOW_JSON", "/routing_model", "routing_model must be an object of screen → next screens.", "Fix routing_model.")];
  const found: FlowFinding[] = [];
  for (const [from, targets] of Object.entries(model)) {
    const path = child("/routing_model", from);
    if (!view.byId.has(from))
      found.push(finding("UNKNOWN_SCREEN", path, `routing_model names '${from}', which is not a screen of the flow.`, "Remove it or fix the name."));
    if (!Array.isArray(targets)) {
      found.push(finding("INVALID_FLOW_JSON", path, `routing_model.${from} must be an array of screen ids.`, "List the screens it may go to."));
      continue;
    }
    targets.forEach((to, index) => {
      if (typeof to === "string" && view.byId.has(to)) return;
      found.push(
        finding(
          "UNKNOWN_SCREEN",
          child(path, index),
          `routing_model sends '${from}' to ${JSON.stringify(to)}, which is not a screen of the flow.`,
          "Name an existing screen.",
        ),
      );
    });
  }
  return found;
}

function edgesOf(json: FlowJson, view: FlowView): Edge[] {
  const edges: Edge[] = [];
  for (const screen of view.screens) {
    for (const at of screen.actions) {
      const to = at.action.name === "navigate" ? navigateTarget(at.action) : null;
      if (screen.id !== null && to !== null) edges.push({ from: screen.id, to, path: child(at.path, "next", "name") });
    }
  }
  const model: Json = isRecord(json.routing_model) ? json.routing_model : {};
  for (const [from, targets] of Object.entries(model)) {
    if (!Array.isArray(targets)) continue;
    targets.forEach((to, index) => {
      if (typeof to === "string") edges.push({ from, to, path: child("/routing_model", from, index) });
    });
  }
  return edges;
}

/** Forward-only: a depth-first walk that meets a screen still on its stack found a loop (reported at that edge). */
export function loopFindings(json: FlowJson, view: FlowView): FlowFinding[] {
  const edges = edgesOf(json, view);
  const out = new Map<string, Edge[]>();
  for (const edge of edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const state = new Map<string, "open" | "done">();
  const found: FlowFinding[] = [];
  const visit = (id: string) => {
    state.set(id, "open");
    for (const edge of out.get(id) ?? []) {
      const seen = state.get(edge.to);
      if (seen === "open") {
        found.push(
          finding(
            "NAVIGATION_LOOP",
            edge.path,
            `'${edge.from}' goes back to '${edge.to}', making a loop; navigation only moves forward.`,
            "Go to a later screen instead.",
          ),
        );
      } else if (seen === undefined && view.byId.has(edge.to)) visit(edge.to);
    }
    state.set(id, "done");
  };
  for (const screen of view.screens) if (screen.id !== null && !state.has(screen.id)) visit(screen.id);
  return found;
}
