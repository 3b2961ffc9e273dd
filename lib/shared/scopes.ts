/** Every scope of the spec's Scopes table; `*` grants all of them. */
export const SCOPES = [
  "messages:send",
  "conversations:read",
  "contacts:read",
  "contacts:write",
  "contacts:erase",
  "broadcasts:read",
  "broadcasts:write",
  "broadcasts:send",
  "templates:read",
  "templates:write",
  "channels:read",
  "channels:write",
  "business_agents:read",
  "business_agents:write",
  "flows:read",
  "flows:send",
  "flows:publish",
  "functions:read",
  "functions:write",
  "functions:invoke",
  "submissions:read",
  "dispatches:read",
  "projects:read",
  "projects:write",
  "config:read",
  "config:write",
  "registrations:create",
  "limits:read",
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = "*";

/** Publishable keys can only mint registration intents. */
export const PUBLISHABLE_SCOPES: Scope[] = ["registrations:create"];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.includes(ALL_SCOPES) || granted.includes(required);
}
