import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import {
  Automation,
  AutomationCreateRequest,
  AutomationDeleted,
  AutomationEvaluation,
  AutomationListQuery,
  AutomationRun,
  AutomationRunListQuery,
  AutomationUpdateRequest,
} from "@/lib/api/schemas/automations";
import { getAutomation, getAutomationRun, listAutomationRuns, listAutomations } from "@/lib/domain/automations/crud";
import { explainMessage } from "@/lib/domain/automations/explain";
import { changeAutomation, createAutomation, deleteAutomation } from "@/lib/domain/automations/edit";

const tag = "Automations";
const oneSource =
  "Automations are the config document's `automations` (GET /config exports every one, and an apply that no longer lists one deletes it); these operations write the same rows, judged by the same checks.";
const judged =
  "The body is judged as POST /config/validate judges the entry: any error → 422 config_invalid with `config_issues` ({path, message, severity}, paths relative to the automation, e.g. steps.1.wait_reply.options.0.label) and nothing written. Audited.";

export const automationRoutes = [
  defineRoute({
    method: "GET",
    path: "/automations",
    operationId: "listAutomations",
    summary: "List the project's automations, in config order",
    description: `${oneSource} Config order (\`position\`) decides between two KEYWORD automations that both match. Filter by active.`,
    tag,
    scope: "config:read",
    query: AutomationListQuery,
    response: listOf(Automation, "AutomationList"),
    handler: ({ ctx, query }) => listAutomations(ctx, query),
  }),
  defineRoute({
    method: "POST",
    path: "/automations",
    operationId: "createAutomation",
    summary: "Create an automation",
    description: `${oneSource} The key must be new to the project; \`position\` places it in config order (default: last) and shifts the others. ${judged}`,
    tag,
    scope: "config:write",
    body: AutomationCreateRequest,
    response: Automation,
    handler: ({ ctx, body }) => createAutomation(ctx, body),
  }),
  defineRoute({
    method: "GET",
    path: "/automations/{id}",
    operationId: "getAutomation",
    summary: "Retrieve an automation",
    description: oneSource,
    tag,
    scope: "config:read",
    params: IdParam,
    response: Automation,
    handler: ({ ctx, params }) => getAutomation(ctx, params.id),
  }),
  defineRoute({
    method: "PATCH",
    path: "/automations/{id}",
    operationId: "updateAutomation",
    summary: "Change an automation",
    description: `Any of name, trigger, steps, active and position; what is left out stays. \`key\` is the automation's identity in the config document: sending another one is a 422 (rename it there, POST /config/apply). An inactive automation starts no run; runs already going carry on, and follow the changed steps from their next step. ${judged}`,
    tag,
    scope: "config:write",
    params: IdParam,
    body: AutomationUpdateRequest,
    response: Automation,
    handler: ({ ctx, params, body }) => changeAutomation(ctx, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/automations/{id}",
    operationId: "deleteAutomation",
    summary: "Delete an automation",
    description: "Its runs go with it; the automations after it move up one place in config order. Audited.",
    tag,
    scope: "config:write",
    params: IdParam,
    response: AutomationDeleted,
    handler: ({ ctx, params }) => deleteAutomation(ctx, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/automations/{id}/runs",
    operationId: "listAutomationRuns",
    summary: "List an automation's runs, newest first",
    description:
      "Each run is one customer message's automation: status RUNNING, WAITING (a delay or a wait_reply), COMPLETED, FAILED (with `error`), CANCELLED (a newer run took the conversation) or TIMED_OUT (a wait_reply got no answer). Filter by status.",
    tag,
    scope: "config:read",
    params: IdParam,
    query: AutomationRunListQuery,
    response: listOf(AutomationRun, "AutomationRunList"),
    handler: ({ ctx, params, query }) => listAutomationRuns(ctx, params.id, query),
  }),
  defineRoute({
    method: "GET",
    path: "/automation-runs/{id}",
    operationId: "getAutomationRun",
    summary: "Retrieve an automation run with its steps",
    description:
      "The run, and what each step did: status, timing, the variables after it, the message it sent (or, for a wait_reply, the reply it took) and a run_function step's invocation. A run of another project is a 404.",
    tag,
    scope: "config:read",
    params: IdParam,
    response: AutomationRun,
    handler: ({ ctx, params }) => getAutomationRun(ctx, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/messages/{id}/automations",
    operationId: "getMessageAutomations",
    summary: "Why a customer message did (not) start an automation",
    description:
      "The decision as it was made, not judged again: the channel's routing when the message arrived, whether it was a customer turn, handoff, a run waiting for a reply in the conversation, and each automation in config order with whether its trigger applied and why not (inactive, keyword_not_matched, not_first_message, earlier_match, superseded). A message the business sent is a 422; another project's a 404.",
    tag,
    scope: "config:read",
    params: IdParam,
    response: AutomationEvaluation,
    handler: ({ ctx, params }) => explainMessage(ctx, params.id),
  }),
];
