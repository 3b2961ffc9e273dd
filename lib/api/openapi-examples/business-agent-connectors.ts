import type { Example, OperationExamples } from "./types";
import { AT, LATER, list } from "./fixtures";

/**
 * Examples of the connector and tool operations of a business agent. Error messages are the ones
 * lib/domain/agents (connectors.ts, tools.ts, tool-backing.ts, connector-secret.ts) produce.
 */

const AGENT_ID = "ba_01jxq5a1b2c3d4e5f6g7h8j9k0";
const API_CONNECTOR_ID = "bacn_01jxq5b1c2d3e4f5g6h7j8k9m0";
const FLOWS_CONNECTOR_ID = "bacn_01jxq5b2c3d4e5f6g7h8j9k0m1";
const ORDER_TOOL_ID = "batl_01jxq5c1d2e3f4g5h6j7k8m9n0";
const SIGNUP_TOOL_ID = "batl_01jxq5c2d3e4f5g6h7j8k9m0n1";
const FLOW_ID = "flow_01jxq4v8b3n5q7s9u1w3y5a7c9";
const FUNCTION_ID = "fn_01jxq4w9c4p6r8t0v2x4z6b8d0";

const API_CONFIG = { base_url: "https://api.shop.example.com/v1", auth_type: "BEARER", auth_header: null, secret: "••••9f3a" };
const ORDER_SCHEMA = { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] };

const ORDER_TOOL = {
  object: "business_agent_connector_tool",
  id: ORDER_TOOL_ID,
  connector_id: API_CONNECTOR_ID,
  business_agent_id: AGENT_ID,
  meta_tool_id: null,
  name: "order_status",
  description: "Looks up an order by its id.",
  backing_type: "API_ENDPOINT",
  backing_flow_id: null,
  backing_function_id: null,
  input_schema: ORDER_SCHEMA,
  config: { method: "GET", path: "/orders/status" },
  created_at: AT,
  updated_at: AT,
};

const SIGNUP_TOOL = {
  ...ORDER_TOOL,
  id: SIGNUP_TOOL_ID,
  connector_id: FLOWS_CONNECTOR_ID,
  name: "sign_up",
  description: "Sends the sign-up form.",
  backing_type: "FLOW",
  backing_flow_id: FLOW_ID,
  input_schema: null,
  config: { body_text: "Sign up in one minute.", flow_cta: "Sign up" },
};

const API_CONNECTOR = {
  object: "business_agent_connector",
  id: API_CONNECTOR_ID,
  business_agent_id: AGENT_ID,
  meta_connector_id: null,
  name: "Shop API",
  type: "API",
  config: API_CONFIG,
  status: "ACTIVE",
  tools: [ORDER_TOOL],
  created_at: AT,
  updated_at: AT,
};

const FLOWS_CONNECTOR = { ...API_CONNECTOR, id: FLOWS_CONNECTOR_ID, name: "Forms", type: "FLOWS", config: null, tools: [SIGNUP_TOOL] };

const agentNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such agent in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No business agent with id '${AGENT_ID}'.` },
  },
};
const connectorNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such connector in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No business agent connector with id '${API_CONNECTOR_ID}'.` },
  },
};
const toolNotFound: Record<string, Example> = {
  notFound: {
    summary: "No such tool in this project (another project's id answers the same)",
    value: { error: "not_found", message: `No business agent tool with id '${ORDER_TOOL_ID}'.` },
  },
};

const backingErrors: Record<string, Example> = {
  unpublishedFlow: {
    summary: "The flow is still a draft",
    value: {
      error: "invalid_tool_backing",
      message: `Flow ${FLOW_ID} is DRAFT: a FLOW tool sends a published flow. Publish it first (POST /flows/${FLOW_ID}/publish).`,
      backing_type: "FLOW",
      backing_flow_id: FLOW_ID,
    },
  },
  undeployedFunction: {
    summary: "The function has no deployed version",
    value: {
      error: "invalid_tool_backing",
      message: `Function order-status has no deployed version. Deploy it first (POST /functions/${FUNCTION_ID}/deploy).`,
      backing_type: "HOSTED_FUNCTION",
      backing_function_id: FUNCTION_ID,
    },
  },
  notApiConnector: {
    summary: "An API_ENDPOINT tool on a FLOWS connector",
    value: {
      error: "invalid_tool_backing",
      message: `An API_ENDPOINT tool belongs to an API connector; connector ${FLOWS_CONNECTOR_ID} is FLOWS.`,
      backing_type: "API_ENDPOINT",
      connector_id: FLOWS_CONNECTOR_ID,
    },
  },
};

const toolConflict: Record<string, Example> = {
  toolConflict: {
    summary: "The agent already has a tool of that name",
    value: {
      error: "tool_conflict",
      message: "The agent already has a tool named 'order_status'. Choose another name, or edit that tool.",
      issues: { name: ["Already used by a tool of this agent."] },
    },
  },
};

const apiConfigInvalid: Example = {
  summary: "BEARER without a secret",
  value: {
    error: "invalid_request",
    message: "An API connector's config is {base_url, auth_type: NONE|API_KEY|BEARER, auth_header?, secret?}.",
    issues: { "config.secret": ["auth_type BEARER needs a secret."] },
  },
};

export const businessAgentConnectorExamples: Record<string, OperationExamples> = {
  listBusinessAgentConnectors: {
    response: {
      connectors: { summary: "An API connector (secret masked) and a FLOWS connector, with their tools", value: list([API_CONNECTOR, FLOWS_CONNECTOR]) },
    },
    errors: { 404: agentNotFound },
  },
  createBusinessAgentConnector: {
    request: {
      api: {
        summary: "An API connector with a bearer token",
        value: { name: "Shop API", type: "API", config: { base_url: "https://api.shop.example.com/v1", auth_type: "BEARER", secret: "sk_live_8c1d9f3a" } },
      },
      flows: { summary: "A connector that groups FLOW tools", value: { business_agent_id: AGENT_ID, name: "Forms", type: "FLOWS" } },
    },
    response: { created: { summary: "The secret is sealed; reads show its last 4 characters", value: { ...API_CONNECTOR, tools: [] } } },
    errors: {
      400: {
        configInvalid: apiConfigInvalid,
        otherAgent: {
          summary: "business_agent_id names another agent than the path",
          value: {
            error: "invalid_request",
            message: `business_agent_id must be the agent of the path (${AGENT_ID}), or left out.`,
            issues: { business_agent_id: [`Expected ${AGENT_ID}.`] },
          },
        },
      },
      404: agentNotFound,
    },
  },
  updateBusinessAgentConnector: {
    request: {
      disable: { summary: "Take its tools away from the agent", value: { status: "DISABLED" } },
      rotate: {
        summary: "A new secret (the masked value sent back would keep the old one)",
        value: { config: { base_url: "https://api.shop.example.com/v1", auth_type: "BEARER", secret: "sk_live_77aa0b12" } },
      },
    },
    response: {
      updated: { summary: "With its tools", value: { ...API_CONNECTOR, config: { ...API_CONFIG, secret: "••••0b12" }, updated_at: LATER } },
    },
    errors: {
      400: { configInvalid: apiConfigInvalid },
      404: connectorNotFound,
      409: {
        apiTools: {
          summary: "Leaving type API while API_ENDPOINT tools remain",
          value: {
            error: "conflict",
            message: `Connector ${API_CONNECTOR_ID} has API_ENDPOINT tools (e.g. 'order_status'), which need an API connector. Delete or change them before changing the type.`,
            connector_id: API_CONNECTOR_ID,
          },
        },
      },
    },
  },
  deleteBusinessAgentConnector: {
    response: { deleted: { summary: "Its tools go with it", value: { object: "business_agent_connector", id: API_CONNECTOR_ID, deleted: true } } },
    errors: { 404: connectorNotFound },
  },
  createBusinessAgentTool: {
    request: {
      api: {
        summary: "An API_ENDPOINT tool with an argument schema",
        value: {
          name: "order_status",
          description: "Looks up an order by its id.",
          backing_type: "API_ENDPOINT",
          input_schema: ORDER_SCHEMA,
          config: ORDER_TOOL.config,
        },
      },
      flow: { summary: "A FLOW tool: calling it sends the published flow", value: { name: "sign_up", backing_type: "FLOW", backing_flow_id: FLOW_ID } },
      function: {
        summary: "A HOSTED_FUNCTION tool (run as event_type agent_tool)",
        value: { name: "refund", backing_type: "HOSTED_FUNCTION", backing_function_id: FUNCTION_ID },
      },
      noop: {
        summary: "A NOOP tool returns its config.response",
        value: { name: "opening_hours", backing_type: "NOOP", config: { response: { text: "9 to 5, Monday to Friday." } } },
      },
    },
    response: { created: { summary: "An API_ENDPOINT tool", value: ORDER_TOOL } },
    errors: { 404: connectorNotFound, 409: toolConflict, 422: backingErrors },
  },
  updateBusinessAgentTool: {
    request: { describe: { summary: "A better description for the agent", value: { description: "Looks up an order's delivery status by its id." } } },
    response: {
      updated: {
        summary: "Checked as a whole again",
        value: { ...ORDER_TOOL, description: "Looks up an order's delivery status by its id.", updated_at: LATER },
      },
    },
    errors: { 404: toolNotFound, 409: toolConflict, 422: backingErrors },
  },
  deleteBusinessAgentTool: {
    response: { deleted: { summary: "The tool is gone", value: { object: "business_agent_connector_tool", id: ORDER_TOOL_ID, deleted: true } } },
    errors: { 404: toolNotFound },
  },
};
