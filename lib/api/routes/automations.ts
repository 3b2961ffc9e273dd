import { defineRoute } from "@/lib/api/route";
import { IdParam, listOf } from "@/lib/api/schemas/common";
import { Automation, AutomationListQuery, AutomationRun, AutomationRunListQuery, AutomationUpdateRequest } from "@/lib/api/schemas/automations";
import { getAutomation, listAutomationRuns, listAutomations, updateAutomation } from "@/lib/domain/automations/crud";

const tag = "Automations";
const fromConfig = "Automations are written by config-as-code (POST /config/apply); the API reads them and switches them on or off.";

export const automationRoutes = [
  defineRoute({
    method: "GET",
    path: "/automations",
    operationId: "listAutomations",
    summary: "List the project's automations, in config order",
    description: `${fromConfig} Config order decides between two KEYWORD automations that both match. Filter by active.`,
    tag,
    scope: "config:read",
    query: AutomationListQuery,
    response: listOf(Automation, "AutomationList"),
    handler: ({ ctx, query }) => listAutomations(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/automations/{id}",
    operationId: "getAutomation",
    summary: "Retrieve an automation",
    description: fromConfig,
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
    summary: "Switch an automation on or off",
    description: "Only `active` can change here (the rest is config-as-code). An inactive automation starts no run; runs already going carry on.",
    tag,
    scope: "config:write",
    audit: { exempt: "an automation's name and on/off switch: behaviour the project's config document owns, whose apply is audited (config.applied)" },
    params: IdParam,
    body: AutomationUpdateRequest,
    response: Automation,
    handler: ({ ctx, params, body }) => updateAutomation(ctx, params.id, body),
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
];
