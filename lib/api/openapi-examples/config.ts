import type { Example, OperationExamples } from "./types";
import { PROJECT_ID } from "./fixtures";
import { CONFIG_KEY, DRAFT, FLOW_JSON_ES } from "./flows-fixtures";
import { SLUG } from "./functions-fixtures";

/**
 * Examples of the config-as-code operations. Issue messages, diff items and error bodies are the
 * ones lib/domain/config produces (copied from a real validate, diff and apply of this document).
 */

const SCHEMA_URL = "https://svc.example.com/api/v1/config/schema.json";

/** What a repository keeps: routing, webhook, a flow group (default + es) and two automations. */
const DOCUMENT = {
  $schema: SCHEMA_URL,
  version: 1,
  project_id: PROJECT_ID,
  require_opt_in: true,
  project: { name: "Support bot", description: "Answers the shop's customers.", routing_mode: "FLOWS" },
  webhook: { url: null },
  flows: [
    { key: CONFIG_KEY, name: "Book an appointment", draft: DRAFT },
    { key: CONFIG_KEY, name: "Reservar una cita", locale: "es", flow_json: FLOW_JSON_ES },
  ],
  automations: [
    {
      key: "opening-hours",
      name: "Opening hours",
      trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["hours", "open"] },
      steps: [{ send_reply: { text: "We are open 9:00-18:00, Monday to Saturday." } }],
      active: true,
    },
    {
      key: "book",
      name: "Book",
      trigger: { type: "KEYWORD", keywords: ["book", "appointment"] },
      steps: [{ send_flow: { flow: CONFIG_KEY, body_text: "Pick a day and time." } }, { run_function: { function: SLUG, result_mode: "side_effect" } }],
      active: true,
    },
  ],
};

const NOT_PUBLISHED = {
  path: "automations.1.steps.0.send_flow.flow",
  message: `Flow '${CONFIG_KEY}' is not published: this step fails until it is (POST /flows/{id}/publish).`,
  severity: "warning",
};

const FIRST_DIFF = [
  { type: "project", key: PROJECT_ID, action: "update", changes: ["description", "routing_mode"] },
  { type: "webhook", key: "url", action: "unchanged" },
  { type: "flow", key: CONFIG_KEY, action: "create" },
  { type: "flow", key: `${CONFIG_KEY}@es`, action: "create" },
  { type: "automation", key: "opening-hours", action: "create" },
  { type: "automation", key: "book", action: "create" },
  { type: "automation", key: "welcome", action: "delete" },
];

const ALL_UNCHANGED = [
  { type: "project", key: PROJECT_ID, action: "unchanged" },
  { type: "webhook", key: "url", action: "unchanged" },
  { type: "flow", key: CONFIG_KEY, action: "unchanged" },
  { type: "flow", key: `${CONFIG_KEY}@es`, action: "unchanged" },
  { type: "automation", key: "opening-hours", action: "unchanged" },
  { type: "automation", key: "book", action: "unchanged" },
];

const INVALID_ISSUES = [
  {
    path: "flows.1.locale",
    message: `Flow key '${CONFIG_KEY}' with locale es is already flows.0: each (key, locale) appears once.`,
    severity: "error",
  },
  {
    path: "automations.1.steps.1.run_function.function",
    message: `No function 'crm-lookup' in this project: name a function's slug or id (GET /functions).`,
    severity: "error",
  },
];

const INVALID_DOCUMENT = {
  ...DOCUMENT,
  flows: [DOCUMENT.flows[1], DOCUMENT.flows[1]],
  automations: [
    DOCUMENT.automations[0],
    { ...DOCUMENT.automations[1], steps: [DOCUMENT.automations[1]!.steps[0], { run_function: { function: "crm-lookup" } }] },
  ],
};

const request: Record<string, Example> = {
  document: { summary: "A project's document: settings, a flow group with an es variant, two automations", value: DOCUMENT },
};

const OTHER_PROJECT = "proj_01jxq3m5n8v2c4t6r8w0y2a4b6";
const mismatch: Example = {
  summary: "project_id names another project than the key's",
  value: {
    error: "config_project_mismatch",
    message: `This document is for project ${OTHER_PROJECT}, but the API key belongs to project ${PROJECT_ID}. Use a key of ${OTHER_PROJECT}, or change project_id.`,
    issues: { project_id: [`Must be ${PROJECT_ID}, the key's project.`] },
  },
};

export const configExamples: Record<string, OperationExamples> = {
  exportConfig: {
    response: { document: { summary: "The project as a document (defaults left out, keys in schema order)", value: DOCUMENT } },
  },
  getConfigSchema: {
    response: {
      schema: {
        summary: "The document's JSON Schema (abridged)",
        value: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          $id: SCHEMA_URL,
          title: "svc config-as-code document",
          type: "object",
          required: ["flows", "automations"],
          additionalProperties: false,
        },
      },
    },
  },
  validateConfig: {
    request: { ...request, invalid: { summary: "A (key, locale) twice and an unknown function", value: INVALID_DOCUMENT } },
    response: {
      valid: { summary: "Valid, with a warning", value: { object: "config_validation", valid: true, config: DOCUMENT, issues: [NOT_PUBLISHED] } },
      invalid: { summary: "Errors, by dotted path", value: { object: "config_validation", valid: false, config: INVALID_DOCUMENT, issues: INVALID_ISSUES } },
    },
    errors: { 422: { mismatch } },
  },
  diffConfig: {
    request,
    response: {
      first: {
        summary: "Against a project that has one older automation",
        value: { object: "config_diff", valid: true, issues: [NOT_PUBLISHED], diff: FIRST_DIFF },
      },
    },
    errors: { 422: { mismatch } },
  },
  applyConfig: {
    request,
    response: {
      first: { summary: "First apply", value: { object: "config_apply", valid: true, issues: [NOT_PUBLISHED], diff: FIRST_DIFF, config: DOCUMENT } },
      again: {
        summary: "The same document again: all unchanged",
        value: { object: "config_apply", valid: true, issues: [NOT_PUBLISHED], diff: ALL_UNCHANGED, config: DOCUMENT },
      },
    },
    errors: {
      422: {
        invalid: {
          summary: "Error issues: nothing was written",
          value: {
            error: "config_invalid",
            message: "The config document has 2 error(s); nothing was applied. Fix them (POST /config/validate lists them) and apply again.",
            issues: Object.fromEntries(INVALID_ISSUES.map((issue) => [issue.path, [issue.message]])),
            config_issues: INVALID_ISSUES,
          },
        },
        mismatch,
      },
    },
  },
};
