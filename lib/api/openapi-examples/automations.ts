import type { Example, OperationExamples } from "./types";
import { KEY_IMMUTABLE } from "@/lib/domain/config/automation-checks";
import { AT, CHANNEL_ID, CONTACT_ID, CONVERSATION_ID, INBOUND_MESSAGE_ID, LATER, list } from "./fixtures";

/**
 * Examples of the automation operations: a project with a KEYWORD automation ("pricing") that
 * replies with buttons and waits for the answer, and a WELCOME automation. Error messages are the
 * ones lib/domain/automations and the route wrapper produce.
 */
const AUTOMATION_ID = "auto_01jxq5a1b2c3d4e5f6g7h8j9k0";
const WELCOME_ID = "auto_01jxq5a1b2c3d4e5f6g7h8j9k1";
const RUN_ID = "arun_01jxq5b2c3d4e5f6g7h8j9k0m1";
const FAILED_RUN_ID = "arun_01jxq5b2c3d4e5f6g7h8j9k0m0";
const REPLY_MESSAGE_ID = "msg_01jxq5c3d4e5f6g7h8j9k0m1n2";

const PRICING = {
  object: "automation",
  id: AUTOMATION_ID,
  key: "pricing",
  name: "Pricing questions",
  trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["price", "precio", "how much"] },
  steps: [
    {
      send_reply: {
        text: "Hi {{contact.name}}! Which plan are you asking about?",
        buttons: [
          { id: "basic", title: "Basic" },
          { id: "pro", title: "Pro" },
        ],
      },
    },
    {
      wait_reply: {
        timeout_hours: 24,
        options: [
          { id: "basic", label: "Basic" },
          { id: "pro", label: "Pro", keywords: ["premium"] },
        ],
      },
    },
    { run_function: { function: "plan-price", result_mode: "reply", reply_field: "text" } },
  ],
  active: true,
  position: 1,
  created_at: AT,
  updated_at: AT,
};

const WELCOME = {
  object: "automation",
  id: WELCOME_ID,
  key: "welcome",
  name: "Welcome",
  trigger: { type: "WELCOME" },
  steps: [{ send_reply: { text: "Welcome to Acme! Write 'price' for our plans." } }, { delay: { minutes: 60 } }, { send_reply: { text: "Still there?" } }],
  active: true,
  position: 0,
  created_at: AT,
  updated_at: AT,
};

const ASKED_MESSAGE_ID = "msg_01jxq5c3d4e5f6g7h8j9k0m1n1";
const INVOCATION_ID = "fninv_01jxq5d4e5f6g7h8j9k0m1n2p3";
const step = (index: number, type: string, status: string, at: { started: string; ended: string | null }, extra: Record<string, unknown> = {}) => ({
  index,
  type,
  status,
  started_at: at.started,
  ended_at: at.ended,
  duration_ms: at.ended ? Date.parse(at.ended) - Date.parse(at.started) : null,
  variables_after: {},
  message_id: null,
  invocation_id: null,
  error: null,
  ...extra,
});

const WAITING_RUN = {
  object: "automation_run",
  id: RUN_ID,
  automation_id: AUTOMATION_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  trigger_message_id: INBOUND_MESSAGE_ID,
  status: "WAITING",
  step_index: 1,
  step: "wait_reply",
  variables: {},
  error: null,
  wait_until: "2026-06-19T09:42:11.000Z",
  steps: [
    step(0, "send_reply", "completed", { started: LATER, ended: LATER }, { message_id: ASKED_MESSAGE_ID }),
    step(1, "wait_reply", "waiting", { started: LATER, ended: null }),
  ],
  started_at: LATER,
  ended_at: null,
};

const FUNCTION_ERROR = {
  code: "function_error",
  message: `Function plan-price failed (invocation ${INVOCATION_ID}): uncaught_exception: price list unavailable`,
};
const ANSWERED = { reply_text: "Pro", reply_option: "pro", reply_message_id: REPLY_MESSAGE_ID };

const FAILED_RUN = {
  ...WAITING_RUN,
  id: FAILED_RUN_ID,
  trigger_message_id: "msg_01jxq5c3d4e5f6g7h8j9k0m1n0",
  status: "FAILED",
  step_index: 2,
  step: "run_function",
  variables: ANSWERED,
  error: FUNCTION_ERROR,
  wait_until: null,
  steps: [
    step(0, "send_reply", "completed", { started: AT, ended: AT }, { message_id: ASKED_MESSAGE_ID }),
    step(1, "wait_reply", "completed", { started: AT, ended: "2026-06-18T09:31:01.000Z" }, { variables_after: ANSWERED, message_id: REPLY_MESSAGE_ID }),
    step(
      2,
      "run_function",
      "failed",
      { started: "2026-06-18T09:31:01.000Z", ended: "2026-06-18T09:31:02.000Z" },
      { variables_after: ANSWERED, invocation_id: INVOCATION_ID, error: FUNCTION_ERROR },
    ),
  ],
  started_at: AT,
  ended_at: "2026-06-18T09:31:02.000Z",
};

const evaluated = (id: string, key: string, name: string, position: number, trigger: string, result: string, reason: string | null, detail: string) => ({
  automation_id: id,
  key,
  name,
  position,
  active: true,
  trigger_type: trigger,
  result,
  reason,
  detail,
});

const STARTED = {
  object: "automation_evaluation",
  message_id: INBOUND_MESSAGE_ID,
  conversation_id: CONVERSATION_ID,
  channel_id: CHANNEL_ID,
  routing_mode: "FLOWS",
  decided_at: LATER,
  outcome: "started",
  run_id: RUN_ID,
  reason: null,
  detail: `'pricing' started run ${RUN_ID}.`,
  automations: [
    evaluated(
      WELCOME_ID,
      "welcome",
      "Welcome",
      0,
      "WELCOME",
      "not_matched",
      "not_first_message",
      "WELCOME answers a contact's first message only; this contact had written before.",
    ),
    evaluated(AUTOMATION_ID, "pricing", "Pricing questions", 1, "KEYWORD", "ran", null, `Its trigger applied and it came first: it started run ${RUN_ID}.`),
  ],
};

const NOT_FLOWS = {
  ...STARTED,
  routing_mode: "EXTERNAL",
  outcome: "none",
  run_id: null,
  reason: "routing_not_flows",
  detail: "The channel routed EXTERNAL when the message arrived: automations run only where a channel's effective routing is FLOWS.",
  automations: STARTED.automations.map((a) => ({
    ...a,
    result: "skipped",
    reason: "routing_not_flows",
    detail: "Not evaluated: the channel routed EXTERNAL, not FLOWS.",
  })),
};

const NO_MATCH = {
  ...STARTED,
  outcome: "none",
  run_id: null,
  reason: "no_match",
  detail: "No active automation's trigger applied to this message, so nothing ran.",
  automations: [
    STARTED.automations[0],
    evaluated(
      AUTOMATION_ID,
      "pricing",
      "Pricing questions",
      1,
      "KEYWORD",
      "not_matched",
      "keyword_not_matched",
      "None of its keywords matched the message's text (nor a button's or list row's title or id).",
    ),
  ],
};

const { object: _object, id: _id, created_at: _created, updated_at: _updated, position: _position, ...welcomeEntry } = WELCOME;

const ORDER_REQUEST = {
  key: "order",
  name: "Order status",
  trigger: { type: "KEYWORD", match_mode: "CONTAINS_WORD", keywords: ["order"] },
  steps: [
    {
      send_reply: {
        text: "Which order, {{contact.name}}?",
        buttons: [
          { id: "last", title: "My last order" },
          { id: "other", title: "Another one" },
        ],
      },
    },
    {
      wait_reply: {
        timeout_hours: 24,
        options: [
          { id: "last", label: "My last order" },
          { id: "other", label: "Another one" },
        ],
      },
    },
    { run_function: { function: "order-status", result_mode: "variables", variable_name: "order" } },
    { send_reply: { text: "Your order is {{vars.order.status}}." } },
  ],
};
const ORDER = {
  object: "automation",
  id: "auto_01jxq5a1b2c3d4e5f6g7h8j9k2",
  ...ORDER_REQUEST,
  active: true,
  position: 2,
  created_at: LATER,
  updated_at: LATER,
};

const invalidMessage = (errors: number) =>
  `The automation has ${errors} error(s), judged as POST /config/validate judges it in the config document; nothing was saved. Fix them and send it again.`;
const INVALID_ISSUES = [
  { path: "steps.1.wait_reply.options.0.label", message: "Too small: expected string to have >=1 characters", severity: "error" },
  {
    path: "steps.2.run_function.function",
    message: "Function 'order-status' is inactive (is_active false): activate it (PATCH /functions/fn_01jxq5e5f6g7h8j9k0m1n2p3q4) or name another.",
    severity: "error",
  },
];
const INVALID = {
  error: "config_invalid",
  message: invalidMessage(2),
  issues: Object.fromEntries(INVALID_ISSUES.map((issue) => [issue.path, [issue.message]])),
  config_issues: INVALID_ISSUES,
};

const automationNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such automation in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No automation with id '${AUTOMATION_ID}'.` },
  },
};

export const automationExamples: Record<string, OperationExamples> = {
  listAutomations: {
    response: {
      page: { summary: "In config order", value: list([WELCOME, PRICING]) },
      inactive: { summary: "?active=false: none switched off", value: list([]) },
    },
  },
  getAutomation: {
    response: { keyword: { summary: "A KEYWORD automation: reply with buttons, wait for the answer, reply with a function's result", value: PRICING } },
    errors: { 404: automationNotFound },
  },
  createAutomation: {
    request: {
      keyword: {
        summary: "Keyword `order`: ask with two buttons, wait, run a function with the answer, reply with its result",
        value: ORDER_REQUEST,
      },
      first: { summary: "A WELCOME automation placed first in config order", value: { ...welcomeEntry, position: 0 } },
    },
    response: { keyword: { summary: "Created last in config order", value: ORDER } },
    errors: { 422: { invalid: { summary: "The issues config validate gives for the same entry, paths relative to it", value: INVALID } } },
  },
  updateAutomation: {
    request: {
      off: { summary: "Stop it starting runs", value: { active: false } },
      keywords: { summary: "New keywords, first in config order", value: { trigger: { type: "KEYWORD", keywords: ["price", "plans"] }, position: 0 } },
    },
    response: { off: { summary: "Switched off; runs already going carry on", value: { ...PRICING, active: false, updated_at: LATER } } },
    errors: {
      404: automationNotFound,
      422: {
        key: {
          summary: "The key is the automation's identity in the config document",
          value: {
            error: "config_invalid",
            message: invalidMessage(1),
            issues: { key: [KEY_IMMUTABLE] },
            config_issues: [{ path: "key", message: KEY_IMMUTABLE, severity: "error" }],
          },
        },
      },
    },
  },
  deleteAutomation: {
    response: { deleted: { summary: "Deleted with its runs", value: { object: "automation", id: AUTOMATION_ID, deleted: true } } },
    errors: { 404: automationNotFound },
  },
  listAutomationRuns: {
    response: {
      page: { summary: "Newest first: one waiting for the customer's answer, one that failed in its function", value: list([WAITING_RUN, FAILED_RUN]) },
      failed: { summary: "?status=FAILED", value: list([FAILED_RUN]) },
    },
    errors: { 404: automationNotFound },
  },
  getAutomationRun: {
    response: {
      failed: { summary: "Failed in its function: each step's outcome, timing and what it produced", value: FAILED_RUN },
      waiting: { summary: "Waiting for the customer's answer", value: WAITING_RUN },
    },
    errors: { 404: { notFound: { summary: "No such run in this project", value: { error: "not_found", message: `No automation run with id '${RUN_ID}'.` } } } },
  },
  getMessageAutomations: {
    response: {
      started: { summary: "A keyword matched: its automation started a run", value: STARTED },
      noMatch: { summary: "Nothing matched: each automation's reason", value: NO_MATCH },
      notFlows: { summary: "The channel did not route FLOWS: nothing was evaluated", value: NOT_FLOWS },
    },
    errors: {
      404: { notFound: { summary: "No such message in this project", value: { error: "not_found", message: `No message with id '${INBOUND_MESSAGE_ID}'.` } } },
      422: {
        outbound: {
          summary: "A message the business sent",
          value: {
            error: "unprocessable",
            message: `Message ${INBOUND_MESSAGE_ID} was sent by the business (outbound): automations evaluate customer (inbound) messages only. Ask about the customer message it answered.`,
            message_id: INBOUND_MESSAGE_ID,
          },
        },
      },
    },
  },
};
