import { broadcastPath } from "@/components/broadcasts/paths";
import { functionPath } from "@/components/functions/paths";
import { projectPath } from "@/components/shell/nav-links";
import type { AuditEvent } from "@/lib/client/audit";
import { isAuditAction, type AuditAction } from "@/lib/shared/audit-actions";
import { PLATFORMS, type PlatformCode } from "@/lib/shared/platforms";

/**
 * Each entry as a sentence: "ana@acme.example rotated the secret STRIPE_KEY of function order-bot".
 * Parts, not a string, so the page can set names in code and link the target. Built from the
 * entry's details, which may lack a field in entries written before it was recorded: each sentence
 * falls back to the target's id then.
 */
export type SentencePart = { kind: "text"; text: string } | { kind: "name"; text: string } | { kind: "target"; text: string; href: string | null };

type Details = Record<string, unknown>;

const text = (value: string): SentencePart => ({ kind: "text", text: value });
const name = (value: string): SentencePart => ({ kind: "name", text: value });

function str(details: Details, key: string): string | null {
  const value = details[key];
  return typeof value === "string" && value ? value : null;
}

function num(details: Details, key: string): number | null {
  const value = details[key];
  return typeof value === "number" ? value : null;
}

const ROUTING_WORDS: Record<string, string> = { EXTERNAL: "your webhook", FLOWS: "Flows", AGENT: "the business agent", NONE: "nowhere" };
const OWNER_WORDS: Record<string, string> = { PROVIDER_AGENT: "the business agent", SERVICE: "your service", BUSINESS_INBOX: "the business inbox" };

function routing(value: unknown): string {
  return typeof value === "string" ? (ROUTING_WORDS[value] ?? value) : "the project's routing";
}

function owner(value: unknown): string {
  return typeof value === "string" ? (OWNER_WORDS[value] ?? value) : "someone else";
}

/** Where the target lives in the dashboard, when there is a page worth opening (a deleted or erased one has none). */
export function targetHref(projectId: string, event: AuditEvent): string | null {
  const { type, id } = event.target;
  const details = event.details;
  if (event.action.endsWith(".deleted") || event.action === "contact.erased" || event.action === "member.removed") {
    return type === "business_agent_connector" ? projectPath(projectId, "agent") : null;
  }
  switch (type) {
    case "api_key":
      return projectPath(projectId, "keys");
    case "invitation":
    case "membership":
      return projectPath(projectId, "members");
    case "function":
      return id ? functionPath(projectId, id) : null;
    case "channel":
      return projectPath(projectId, "channels");
    case "flow":
      return id ? projectPath(projectId, `flows/${encodeURIComponent(id)}`) : null;
    case "template":
      return projectPath(projectId, "templates");
    case "broadcast":
      return id ? broadcastPath(projectId, id) : null;
    case "business_agent":
    case "business_agent_connector":
      return projectPath(projectId, "agent");
    case "thread_control": {
      const conversation = str(details, "conversation_id");
      return conversation ? `${projectPath(projectId, "inbox")}?c=${encodeURIComponent(conversation)}` : projectPath(projectId, "inbox");
    }
    case "automation":
      return projectPath(projectId, "automations");
    case "conversation":
      return id ? `${projectPath(projectId, "inbox")}?c=${encodeURIComponent(id)}` : projectPath(projectId, "inbox");
    case "project":
      // The webhook, its secret and the routing are set on the Overview; config on its own page.
      return projectPath(projectId, event.action === "config.applied" ? "config" : "");
    default:
      return null;
  }
}

type Sentence = (d: Details, target: (label: string) => SentencePart) => SentencePart[];

function channelName(d: Details, fallback: string): string {
  return str(d, "display_name") ?? str(d, "phone_number") ?? fallback;
}

function platformName(d: Details): string {
  const code = str(d, "platform");
  return code ? (PLATFORMS[code as PlatformCode]?.name ?? code) : "a platform";
}

function count(n: number | null, one: string): string {
  return n === null ? `${one}s` : `${n} ${one}${n === 1 ? "" : "s"}`;
}

const SENTENCES: Record<AuditAction, Sentence> = {
  "api_key.created": (d, t) => [
    text("created the API key "),
    t(str(d, "name") ?? str(d, "display") ?? "key"),
    text(d.via === "cli_login" ? " through svc login" : ""),
  ],
  "api_key.revoked": (d, t) => [text("revoked the API key "), t(str(d, "name") ?? str(d, "display") ?? "key")],
  "member.invited": (d, t) => [text("invited "), t(str(d, "email") ?? "someone"), text(` as ${str(d, "role") ?? "a member"}`)],
  "invitation.revoked": (d, t) => [text("revoked the invitation of "), t(str(d, "email") ?? "someone")],
  "member.role_changed": (d, t) => [text("changed the role of "), t(str(d, "email") ?? "a member"), text(` from ${str(d, "from")} to ${str(d, "to")}`)],
  "member.removed": (d, t) => [text("removed "), t(str(d, "email") ?? "a member"), text(" from the organization")],
  "project.webhook_url_changed": (d, t) => {
    const [from, to] = [str(d, "from"), str(d, "to")];
    if (!to) return [text("removed the "), t("webhook URL"), ...(from ? [text(" "), name(from)] : [])];
    if (!from) return [text("set the "), t("webhook URL"), text(" to "), name(to)];
    return [text("changed the "), t("webhook URL"), text(" from "), name(from), text(" to "), name(to)];
  },
  "project.webhook_secret_rotated": (d, t) => {
    if (d.source === "removed") return [text("turned "), t("webhook signing"), text(" off")];
    return [text(d.source === "provided" ? "set a new " : "rotated the "), t("webhook signing secret")];
  },
  "project.routing_changed": (d, t) => [text("routed the "), t("project's inbound"), text(` to ${routing(d.to)} instead of ${routing(d.from)}`)],
  "config.applied": (d, t) => [
    text("applied "),
    t("config"),
    text(` (${num(d, "created") ?? 0} created, ${num(d, "updated") ?? 0} updated, ${num(d, "deleted") ?? 0} deleted)`),
  ],
  "automation.created": (d, t) => [text("created the automation "), t(str(d, "name") ?? str(d, "config_key") ?? "automation")],
  "automation.updated": (d, t) => {
    const changed = Array.isArray(d.changes) && d.changes.length ? d.changes.join(", ") : "settings";
    return [text("changed the automation "), t(str(d, "config_key") ?? "automation"), text(` (${changed})`)];
  },
  "automation.deleted": (d, t) => [text("deleted the automation "), t(str(d, "name") ?? str(d, "config_key") ?? "automation")],
  "channel.connected": (d, t) => [text("connected the channel "), t(channelName(d, "channel")), text(` on ${platformName(d)}`)],
  "channel.disconnected": (d, t) => [text("disconnected the channel "), t(channelName(d, "channel"))],
  "channel.routing_changed": (d, t) => [text("routed the channel "), t(channelName(d, "channel")), text(` to ${routing(d.to)} instead of ${routing(d.from)}`)],
  "function.deployed": (d, t) => [text(`deployed version ${num(d, "version_number") ?? "?"} of function `), t(str(d, "slug") ?? "function")],
  "function.rolled_back": (d, t) => [text("rolled back function "), t(str(d, "slug") ?? "function"), text(` to version ${num(d, "version_number") ?? "?"}`)],
  "function.secret_set": (d, t) => [
    text(d.created === true ? "added the secret " : "rotated the secret "),
    name(str(d, "name") ?? "?"),
    text(d.created === true ? " to function " : " of function "),
    t(str(d, "slug") ?? "function"),
  ],
  "function.secret_deleted": (d, t) => [text("deleted the secret "), name(str(d, "name") ?? "?"), text(" of function "), t(str(d, "slug") ?? "function")],
  "business_agent.enabled": (d, t) => [text("turned on the "), t("business agent"), text(` of channel ${str(d, "channel_id") ?? "?"}`)],
  "business_agent.disabled": (d, t) => [text("turned off the "), t("business agent"), text(` of channel ${str(d, "channel_id") ?? "?"}`)],
  "connector.created": (d, t) => [text("added the connector "), t(str(d, "name") ?? "connector"), text(d.has_secret === true ? " with a secret" : "")],
  "connector.updated": (d, t) => {
    if (d.secret_change === "set") return [text("replaced the secret of connector "), t(str(d, "name") ?? "connector")];
    if (d.secret_change === "removed") return [text("removed the secret of connector "), t(str(d, "name") ?? "connector")];
    const changed = Array.isArray(d.changed) && d.changed.length ? d.changed.join(", ") : "settings";
    return [text(`changed the ${changed} of connector `), t(str(d, "name") ?? "connector")];
  },
  "connector.deleted": (d, t) => [text("deleted the connector "), t(str(d, "name") ?? "connector")],
  "thread.taken_over": (d, t) => [text("took over "), t("a customer's thread"), text(` from ${owner(d.from)}`)],
  "thread.passed": (d, t) => [text("passed "), t("a customer's thread"), text(` to ${owner(d.to)}`)],
  "flow.published": (d, t) => [text("published the flow "), t(str(d, "name") ?? "flow"), text(d.copy === true ? ` on channel ${str(d, "channel_id")}` : "")],
  "template.submitted": (d, t) => [text("submitted the template "), t(str(d, "name") ?? "template"), text(` (${str(d, "language") ?? "?"}) for review`)],
  "template.deleted": (d, t) => [text("deleted the template "), t(str(d, "name") ?? "template"), text(` (${str(d, "language") ?? "?"})`)],
  "broadcast.sent": (d, t) => {
    const verb = d.resumed === true ? "resumed" : d.status === "SCHEDULED" ? "scheduled" : "sent";
    return [text(`${verb} the broadcast `), t(str(d, "name") ?? "broadcast"), text(` to ${count(num(d, "recipients"), "recipient")}`)];
  },
  "broadcast.paused": (d, t) => [text("paused the broadcast "), t(str(d, "name") ?? "broadcast")],
  "broadcast.cancelled": (d, t) => [text("cancelled the broadcast "), t(str(d, "name") ?? "broadcast")],
  "contact.erased": (d, t) => {
    const types = Array.isArray(d.deleted_data_types) ? d.deleted_data_types.join(", ").replaceAll("_", " ") : "";
    return [text("erased the personal data of "), t("a contact"), text(types ? ` (${types})` : "")];
  },
  "conversation.assigned": (d, t) =>
    str(d, "to")
      ? [text("assigned "), t("a conversation"), text(d.handoff_turned_on === true ? " to a member and turned its handoff on" : " to a member")]
      : [text("unassigned "), t("a conversation")],
  "conversation.note_added": (_d, t) => [text("added a note to "), t("a conversation")],
};

/** The actor, then what they did, with the target linked where it has a page. */
export function sentenceOf(projectId: string, event: AuditEvent): SentencePart[] {
  const href = targetHref(projectId, event);
  const target = (label: string): SentencePart => ({ kind: "target", text: label, href });
  // An action newer than this page: its code, then the target.
  const action: string = event.action;
  const rest = isAuditAction(action) ? SENTENCES[action](event.details, target) : [text(`${action} `), target(event.target.id ?? event.target.type)];
  return [{ kind: "name", text: event.actor.display }, text(" "), ...rest.filter((part) => part.text !== "")];
}

/** The sentence as plain text (screen readers' labels, tests). */
export function sentenceText(parts: readonly SentencePart[]): string {
  return parts.map((part) => part.text).join("");
}
