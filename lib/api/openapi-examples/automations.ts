import type { Example, OperationExamples } from "./types";
import { KEY_IMMUTABLE } from "@/lib/domain/config/automation-checks";
import { AT, CONTACT_ID, CONVERSATION_ID, LATER, list } from "./fixtures";

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

const WAITING_RUN = {
  object: "automation_run",
  id: RUN_ID,
  automation_id: AUTOMATION_ID,
  conversation_id: CONVERSATION_ID,
  contact_id: CONTACT_ID,
  status: "WAITING",
  step_index: 1,
  step: "wait_reply",
  variables: {},
  error: null,
  wait_until: "2026-06-19T09:42:11.000Z",
  started_at: LATER,
  ended_at: null,
};

const FAILED_RUN = {
  ...WAITING_RUN,
  id: FAILED_RUN_ID,
  status: "FAILED",
  step_index: 2,
  step: "run_function",
  variables: { reply_text: "Pro", reply_option: "pro", reply_message_id: REPLY_MESSAGE_ID },
  error: {
    code: "function_error",
    message: "Function plan-price failed (invocation fninv_01jxq5d4e5f6g7h8j9k0m1n2p3): uncaught_exception: price list unavailable",
  },
  wait_until: null,
  started_at: AT,
  ended_at: "2026-06-18T09:31:02.000Z",
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
};
