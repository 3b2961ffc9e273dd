import { newId, type IdKind } from "@/lib/ids";

/** The id kind a path parameter holds, named by the collection segment before it ("/channels/{id}"). */
const ID_KIND_OF_COLLECTION: Record<string, IdKind> = {
  projects: "project",
  channels: "channel",
  contacts: "contact",
  conversations: "conversation",
  messages: "message",
  "webhook-deliveries": "webhookDelivery",
  media: "media",
  keys: "apiKey",
  members: "membership",
  invitations: "invitation",
  flows: "flow",
  functions: "function",
  templates: "template",
  automations: "automation",
  "automation-runs": "automationRun",
  "business-agents": "businessAgent",
  "business-agent-connectors": "businessAgentConnector",
  "business-agent-tools": "businessAgentTool",
  "registration-intents": "registrationIntent",
  broadcasts: "broadcast",
  "audit-events": "auditEvent",
  "saved-replies": "savedReply",
};

/**
 * The route's path template with every parameter filled by a fresh, well-formed id of its resource
 * (lib/ids.ts), so a reached handler answers its own 404 rather than a validation error. A new
 * collection with a parameter must be named above: the test says so instead of guessing.
 */
export function concretePath(template: string): string {
  const path = template.replace(/\/([^/{}]+)\/\{(\w+)\}/g, (_match, collection: string, name: string) => {
    const kind = ID_KIND_OF_COLLECTION[collection];
    if (!kind) throw new Error(`tests/support/operations.ts: which id does {${name}} after /${collection} hold? Add /${collection} to ID_KIND_OF_COLLECTION.`);
    return `/${collection}/${newId(kind)}`;
  });
  if (path.includes("{")) throw new Error(`tests/support/operations.ts: a parameter of ${template} follows no collection segment.`);
  return path;
}

/** An empty JSON object for the methods that carry a body: a handler it reaches answers 400 at worst. */
export function emptyBodyFor(method: string): Record<string, never> | undefined {
  return method === "POST" || method === "PATCH" || method === "PUT" ? {} : undefined;
}
