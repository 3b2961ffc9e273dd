import { SCOPES, type Scope } from "./scopes";

/**
 * The scope picker's catalogue: every scope grouped by resource, with what it grants, and the presets.
 * Pure data (no server imports) so the dashboard's key form renders exactly the scopes the API checks.
 */
export interface ScopeGroup {
  resource: string;
  label: string;
  scopes: { scope: Scope; grants: string }[];
}

const GRANTS: Record<Scope, string> = {
  "messages:send": "Send messages",
  "conversations:read": "List conversations, read message history",
  "contacts:read": "Read contacts",
  "contacts:write": "Enroll and update contacts",
  "contacts:erase": "Erase a contact's retained personal data",
  "broadcasts:read": "Read broadcasts",
  "broadcasts:write": "Create and manage broadcasts",
  "broadcasts:send": "Deliver broadcast campaigns",
  "templates:read": "Read templates",
  "templates:write": "Create templates",
  "channels:read": "List and inspect channels",
  "channels:write": "Connect channels, update routing",
  "business_agents:read": "Inspect business agents",
  "business_agents:write": "Provision and manage agents, connectors, tools, settings, thread control, skills",
  "flows:read": "Read Flows",
  "flows:send": "Send Flows",
  "flows:publish": "Publish Flows",
  "functions:read": "Read hosted functions",
  "functions:write": "Deploy and manage hosted functions",
  "functions:invoke": "Invoke hosted functions",
  "submissions:read": "Read Flow submissions",
  "dispatches:read": "Read Flow dispatches",
  "projects:read": "Read project settings and webhook logs",
  "projects:write": "Update project settings (webhook URL, routing), redeliver webhooks",
  "config:read": "Export config-as-code",
  "config:write": "Apply config-as-code",
  "registrations:create": "Mint registration intents",
  "limits:read": "Read the key's limits and quota",
};

const LABELS: Record<string, string> = {
  messages: "Messages",
  conversations: "Conversations",
  contacts: "Contacts",
  broadcasts: "Broadcasts",
  templates: "Templates",
  channels: "Channels",
  business_agents: "Business agents",
  flows: "Flows",
  functions: "Functions",
  submissions: "Flow submissions",
  dispatches: "Flow dispatches",
  projects: "Project & webhooks",
  config: "Config as code",
  registrations: "Registrations",
  limits: "Limits",
};

export const SCOPE_GROUPS: ScopeGroup[] = (() => {
  const groups = new Map<string, ScopeGroup>();
  for (const scope of SCOPES) {
    const resource = scope.split(":")[0]!;
    let group = groups.get(resource);
    if (!group) groups.set(resource, (group = { resource, label: LABELS[resource] ?? resource, scopes: [] }));
    group.scopes.push({ scope, grants: GRANTS[scope] });
  }
  return [...groups.values()];
})();

export interface ScopePreset {
  id: "full_access" | "send_only" | "read_only" | "cli";
  label: string;
  description: string;
  scopes: string[];
}

const SEND_ONLY: ScopePreset = {
  id: "send_only",
  label: "Send only",
  description: "Send messages and read nothing (messages:send): for a server that sends notifications.",
  scopes: ["messages:send"],
};

/** Least privilege first, the order the key form shows them. */
export const SCOPE_PRESETS: ScopePreset[] = [
  SEND_ONLY,
  {
    id: "read_only",
    label: "Read only",
    description: "Read every resource and change nothing: for reports and monitoring.",
    scopes: SCOPES.filter((s) => s.endsWith(":read")),
  },
  {
    id: "full_access",
    label: "Full access",
    description: "Everything, including scopes added later (*): only for tooling you trust with the whole project.",
    scopes: ["*"],
  },
];

/**
 * A new key starts on the narrowest preset that still does the usual first job (send a message), so a
 * key created in a hurry cannot read conversations or change the project (docs/api-decisions.md
 * "Keys and scopes").
 */
export const DEFAULT_KEY_PRESET: ScopePreset = SEND_ONLY;

/**
 * What svc's own CLI commands call with a `svc login` key: config export/diff (config:read), config
 * apply (config:write) and listen (GET /events/listen, projects:read). The confirmation page's default.
 */
export const CLI_SCOPE_PRESET: ScopePreset = {
  id: "cli",
  label: "CLI",
  description: "What the svc CLI uses: config export, diff and apply, and listen (config:read, config:write, projects:read).",
  scopes: ["config:read", "config:write", "projects:read"] satisfies Scope[],
};
