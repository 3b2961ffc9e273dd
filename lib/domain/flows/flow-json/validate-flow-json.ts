import { blankText, finding, textTooLong } from "./finding";
import { componentFindings } from "./flow-json-components";
import { actionFindings, loopFindings, routingFindings, terminalFindings } from "./flow-json-navigation";
import { isDynamicText, isRecord, viewOf, type FlowView, type ScreenView } from "./flow-json-read";
import { DATA_API_VERSION, MAX_SCREENS, MAX_SCREEN_TITLE, SUPPORTED_FLOW_JSON_VERSIONS } from "./limits";
import { child, pointer } from "./pointer";
import type { FlowFinding, FlowJson } from "./types";
import { screenIdFinding } from "./validate-draft";

/**
 * Our findings on a Flow JSON (docs/spec/decisions.md "Flows"), pointers into flow_json: the same rules as
 * the draft's plus the Flow JSON's own (version, one Footer per screen, known components, terminal screens
 * complete, navigate payloads match the target's data). Structural problems are INVALID_FLOW_JSON; the
 * checks that need a piece the JSON lacks are skipped rather than piled on.
 */
export function validateFlowJson(json: unknown): FlowFinding[] {
  if (!isRecord(json)) return [finding("INVALID_FLOW_JSON", "", "Flow JSON must be an object {version, screens}.", "Send the provider's Flow JSON object.")];
  const found = versionFindings(json);
  const screens = json.screens;
  if (!Array.isArray(screens) || screens.length === 0) {
    return [...found, finding("INVALID_FLOW_JSON", "/screens", "Flow JSON needs a non-empty screens array.", "Add at least one screen.")];
  }
  if (screens.length > MAX_SCREENS) {
    found.push(finding("TOO_MANY_SCREENS", "/screens", `The flow has ${screens.length} screens; the limit is ${MAX_SCREENS}.`, "Merge or remove screens."));
  }
  screens.forEach((screen, index) => {
    if (!isRecord(screen))
      found.push(finding("INVALID_FLOW_JSON", pointer("screens", index), `Screen ${index} is not an object.`, "Make each screen an object."));
  });
  const view = viewOf(json, (path) => found.push(finding("INVALID_FLOW_JSON", path, "This is not a component (an object with a type).", "Fix or remove it.")));
  for (const screen of view.screens) found.push(...screenFindings(screen));
  found.push(...duplicateScreenFindings(view));
  if (!view.screens.some((screen) => screen.screen.terminal === true)) {
    found.push(
      finding(
        "NO_TERMINAL_SCREEN",
        "/screens",
        "No screen is terminal, so the flow never completes.",
        'Mark the last screen "terminal": true with a Footer that completes.',
      ),
    );
  }
  found.push(...actionFindings(view), ...terminalFindings(view), ...routingFindings(json, view), ...loopFindings(json, view));
  return found;
}

function versionFindings(json: FlowJson): FlowFinding[] {
  const found: FlowFinding[] = [];
  const version = json.version;
  if (typeof version !== "string") {
    found.push(finding("INVALID_FLOW_JSON", "/version", 'Flow JSON needs a version, such as "7.3".', 'Add "version": "7.3".'));
  } else if (!SUPPORTED_FLOW_JSON_VERSIONS.has(version)) {
    found.push(
      finding(
        "UNSUPPORTED_VERSION",
        "/version",
        `Flow JSON version '${version}' is not one the provider publishes (${[...SUPPORTED_FLOW_JSON_VERSIONS].join(", ")}).`,
        'Use "version": "7.3".',
      ),
    );
  }
  const api = json.data_api_version;
  if (api !== undefined && api !== DATA_API_VERSION) {
    found.push(
      finding(
        "UNSUPPORTED_VERSION",
        "/data_api_version",
        `data_api_version ${JSON.stringify(api)} is not supported.`,
        `Use "data_api_version": "${DATA_API_VERSION}".`,
      ),
    );
  }
  return found;
}

function screenFindings(screen: ScreenView): FlowFinding[] {
  const { screen: s, path } = screen;
  const found: Array<FlowFinding | null> = [];
  if (screen.id === null) found.push(finding("INVALID_FLOW_JSON", child(path, "id"), `Screen ${screen.index} needs a string id.`, "Give the screen an id."));
  else found.push(screenIdFinding(screen.id, child(path, "id")));
  const name = `Screen '${screen.id ?? screen.index}'`;
  if (typeof s.title === "string" && !isDynamicText(s.title)) {
    found.push(
      blankText(child(path, "title"), `The title of ${name}`, s.title),
      textTooLong(child(path, "title"), `The title of ${name}`, s.title, MAX_SCREEN_TITLE),
    );
  }
  if (s.terminal !== undefined && typeof s.terminal !== "boolean") {
    found.push(finding("INVALID_FLOW_JSON", child(path, "terminal"), `terminal of ${name} must be true or false.`, "Set terminal to a boolean."));
  }
  found.push(...dataFindings(screen, name));
  const layout = s.layout;
  if (!isRecord(layout) || layout.type !== "SingleColumnLayout" || !Array.isArray(layout.children)) {
    found.push(
      finding(
        "INVALID_FLOW_JSON",
        child(path, "layout"),
        `${name} needs a layout {type: "SingleColumnLayout", children: [...]}.`,
        "Give the screen a SingleColumnLayout.",
      ),
    );
    return found.filter((f): f is FlowFinding => f !== null);
  }
  found.push(...componentFindings(screen.components, child(path, "layout", "children"), screen.id ?? String(screen.index)));
  return found.filter((f): f is FlowFinding => f !== null);
}

/** Each declared datum is {type, __example__}: the provider checks payloads against it. */
function dataFindings(screen: ScreenView, name: string): FlowFinding[] {
  const data = screen.screen.data;
  if (data === undefined) return [];
  const path = child(screen.path, "data");
  if (!isRecord(data)) return [finding("INVALID_FLOW_JSON", path, `The data of ${name} must be an object.`, "Declare data as {name: {type, __example__}}.")];
  return Object.entries(data).flatMap(([key, declaration]) =>
    isRecord(declaration) && typeof declaration.type === "string" && "__example__" in declaration
      ? []
      : [
          finding(
            "INVALID_FLOW_JSON",
            child(path, key),
            `${name} declares '${key}' without a type and an __example__.`,
            `Declare ${key} as {type, __example__}.`,
          ),
        ],
  );
}

function duplicateScreenFindings(view: FlowView): FlowFinding[] {
  return view.screens.flatMap((screen) =>
    screen.id !== null && view.byId.get(screen.id) !== screen
      ? [finding("DUPLICATE_SCREEN", child(screen.path, "id"), `Screen id '${screen.id}' is used by more than one screen.`, "Give each screen its own id.")]
      : [],
  );
}
