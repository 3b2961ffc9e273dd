import { compileDraft, type RuntimeMode } from "./compile";
import { fieldSchemaOfDraft, fieldSchemaOfFlowJson } from "./field-schema";
import { finding } from "./finding";
import type { Draft, FlowAnalysis, FlowFinding, FlowFindingCode, FlowJson } from "./types";
import { validateDraft } from "./validate-draft";
import { validateFlowJson } from "./validate-flow-json";

export type FlowSource = { draft: Draft } | { flow_json: FlowJson };

/**
 * Findings that leave no sensible Flow JSON to build: navigation that does not resolve to one line of
 * screens, or values that would overwrite each other. Other findings (a long label, a bad option) still
 * compile, so the operator can preview the JSON while fixing them.
 */
const UNCOMPILABLE: ReadonlySet<FlowFindingCode> = new Set([
  "UNKNOWN_SCREEN",
  "DUPLICATE_SCREEN",
  "NAVIGATION_LOOP",
  "NO_TERMINAL_SCREEN",
  "UNREACHABLE_SCREEN",
  "DUPLICATE_FIELD",
]);

/**
 * What every save derives (docs/spec/decisions.md "Flows"). A draft: its findings (pointers into the
 * draft) and, when it compiles, the Flow JSON and the field schema; the compiled JSON is checked too, and
 * its findings (which would be a compiler bug) are added only when the draft itself had none, so one
 * problem is not reported twice. A given flow_json is kept as is, with its findings and derived schema.
 */
export function analyzeFlow(input: FlowSource, options: { runtimeMode?: RuntimeMode } = {}): FlowAnalysis {
  const runtimeMode = options.runtimeMode ?? "STATIC";
  if ("draft" in input) return analyzeDraft(input.draft, runtimeMode);
  const json = input.flow_json;
  return {
    flow_json: json,
    field_schema: fieldSchemaOfFlowJson(json),
    validation_errors: [...validateFlowJson(json), ...runtimeModeFindings(json, runtimeMode)],
  };
}

function analyzeDraft(draft: Draft, runtimeMode: RuntimeMode): FlowAnalysis {
  const findings = validateDraft(draft);
  if (findings.some((f) => UNCOMPILABLE.has(f.code))) return { flow_json: null, field_schema: null, validation_errors: findings };
  const json = compileDraft(draft, { runtimeMode });
  return {
    flow_json: json,
    field_schema: fieldSchemaOfDraft(draft),
    validation_errors: findings.length > 0 ? findings : validateFlowJson(json),
  };
}

/** The runtime mode decides whether publishing registers an endpoint, so the JSON has to agree with it. */
function runtimeModeFindings(json: FlowJson, runtimeMode: RuntimeMode): FlowFinding[] {
  const endpoint = json.data_api_version !== undefined;
  if (runtimeMode === "STATIC" && endpoint) {
    return [
      finding(
        "INVALID_FLOW_JSON",
        "/data_api_version",
        "This Flow JSON talks to an endpoint (data_api_version), but the flow's runtime_mode is STATIC.",
        "Set runtime_mode to DATA_EXCHANGE with a data_exchange_url, or remove data_api_version and routing_model.",
      ),
    ];
  }
  if (runtimeMode !== "DATA_EXCHANGE") return [];
  const found: FlowFinding[] = [];
  if (!endpoint) {
    found.push(
      finding(
        "INVALID_FLOW_JSON",
        "/data_api_version",
        "runtime_mode is DATA_EXCHANGE, but this Flow JSON has no data_api_version.",
        'Add "data_api_version": "3.0" and a routing_model, or set runtime_mode to STATIC.',
      ),
    );
  }
  if (json.routing_model === undefined) {
    found.push(
      finding("INVALID_FLOW_JSON", "/routing_model", "An endpoint flow needs a routing_model.", "Add routing_model: {screen id: [screens it may go to]}."),
    );
  }
  return found;
}

/** A flow can be published when it compiled (or was given as Flow JSON) and has no findings. */
export function publishable(analysis: FlowAnalysis): boolean {
  return analysis.flow_json !== null && analysis.validation_errors.length === 0;
}
