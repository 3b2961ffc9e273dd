/**
 * Request, response and error examples of the API reference, keyed by operationId. Kept beside the
 * route table rather than in it so the examples of every resource live together and can grow without
 * touching lib/api/routes; lib/api/openapi.ts attaches them to the document, and
 * tests/openapi-examples.test.ts parses each one with its operation's zod schemas so none can drift.
 */
import type { OperationExamples } from "./types";
import { channelExamples } from "./channels";
import { contactExamples, conversationExamples } from "./contacts";
import { flowExamples } from "./flows";
import { functionExamples } from "./functions";
import { messageExamples } from "./messages";
import { metaExamples } from "./meta";
import { projectExamples, readinessExamples } from "./projects";
import { templateExamples } from "./templates";
import { webhookExamples } from "./webhooks";
import { eventStreamExamples } from "./event-stream";
import { automationExamples } from "./automations";
import { configExamples } from "./config";
import { businessAgentConnectorExamples } from "./business-agent-connectors";
import { businessAgentExamples } from "./business-agents";
import { agentThreadExamples } from "./agent-threads";
import { registrationIntentExamples } from "./registration-intents";
import { broadcastExamples } from "./broadcasts";
import { auditEventExamples } from "./audit-events";
import { inboxConversationExamples, savedReplyExamples } from "./inbox";

export type { Example, OperationExamples } from "./types";
export { genericErrorExamples } from "./errors";

export const OPENAPI_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  ...metaExamples,
  ...projectExamples,
  ...readinessExamples,
  ...channelExamples,
  ...contactExamples,
  ...conversationExamples,
  ...inboxConversationExamples,
  ...savedReplyExamples,
  ...messageExamples,
  ...webhookExamples,
  ...eventStreamExamples,
  ...flowExamples,
  ...functionExamples,
  ...templateExamples,
  ...automationExamples,
  ...configExamples,
  ...businessAgentConnectorExamples,
  ...businessAgentExamples,
  ...agentThreadExamples,
  ...registrationIntentExamples,
  ...broadcastExamples,
  ...auditEventExamples,
};
