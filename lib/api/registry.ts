import { isByteRoute, type Endpoint } from "./endpoint";
import type { Route } from "./route";
import { metaRoutes, openApiDocumentRoute } from "./routes/meta";
import { projectRoutes } from "./routes/projects";
import { channelRoutes } from "./routes/channels";
import { contactRoutes } from "./routes/contacts";
import { conversationRoutes } from "./routes/conversations";
import { savedReplyRoutes } from "./routes/saved-replies";
import { messageRoutes } from "./routes/messages";
import { webhookRoutes } from "./routes/webhooks";
import { eventStreamRoutes } from "./routes/event-stream";
import { readinessRoutes } from "./routes/readiness";
import { mediaRoutes } from "./routes/media";
import { flowRoutes } from "./routes/flows";
import { functionRoutes } from "./routes/functions";
import { templateRoutes } from "./routes/templates";
import { broadcastRoutes } from "./routes/broadcasts";
import { configRoutes } from "./routes/config";
import { automationRoutes } from "./routes/automations";
import { businessAgentConnectorRoutes } from "./routes/business-agent-connectors";
import { businessAgentRoutes } from "./routes/business-agents";
import { agentThreadRoutes } from "./routes/agent-threads";
import { registrationIntentRoutes } from "./routes/registration-intents";
import { auditEventRoutes } from "./routes/audit-events";
import { mcpRoutes } from "./mcp/endpoint";

/**
 * Every served /api/v1 operation, in the order the OpenAPI document lists them. The router, the
 * document and the tests read this one table; a new module adds its routes file here. Two entries on
 * one method and path fail when the router compiles the table (lib/api/router.ts createRouter).
 */
export const apiRoutes: readonly Endpoint[] = [
  openApiDocumentRoute(() => apiRoutes),
  ...metaRoutes,
  ...projectRoutes,
  ...channelRoutes,
  ...contactRoutes,
  ...conversationRoutes,
  ...savedReplyRoutes,
  ...messageRoutes,
  ...webhookRoutes,
  ...eventStreamRoutes,
  ...readinessRoutes,
  ...mediaRoutes,
  ...flowRoutes,
  ...functionRoutes,
  ...templateRoutes,
  ...broadcastRoutes,
  ...configRoutes,
  ...automationRoutes,
  ...businessAgentRoutes,
  ...businessAgentConnectorRoutes,
  ...agentThreadRoutes,
  ...registrationIntentRoutes,
  ...auditEventRoutes,
  // The MCP server serves tools from this same table (a thunk: the table is not built yet here).
  ...mcpRoutes(() => jsonRoutes),
];

/** The JSON operations (defineRoute): the ones the dashboard also serves to operators, per project. */
export const jsonRoutes: readonly Route[] = apiRoutes.filter((endpoint): endpoint is Route => !isByteRoute(endpoint));
