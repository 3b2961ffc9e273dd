import type { BadgeTone } from "@/components/ui";
import { functionPath } from "@/components/functions/paths";
import { projectPath } from "@/components/shell/nav-links";
import type { AuditAction, AuditActorType, AuditEvent } from "@/lib/client/audit";

/** How the audit log says things. A Record over the action union, so a new action cannot ship without words. */
export const ACTION_LABELS: Record<AuditAction, string> = {
  "api_key.created": "Created API key",
  "api_key.revoked": "Revoked API key",
  "automation.created": "Created automation",
  "automation.updated": "Changed automation",
  "automation.deleted": "Deleted automation",
  "config.applied": "Applied config",
  "function.deployed": "Deployed function",
  "function.rolled_back": "Rolled back function",
  "project.webhook_secret_rotated": "Rotated webhook secret",
};

export function actionLabel(action: AuditAction): string {
  // The API may add actions before this page learns their words (its schema says so): show the code then.
  return ACTION_LABELS[action] ?? action;
}

/** The action filter's choices, in the order above. */
export const AUDIT_ACTIONS = Object.keys(ACTION_LABELS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(ACTION_LABELS, value);
}

export const ACTOR_TYPES: Record<AuditActorType, { label: string; tone: BadgeTone }> = {
  user: { label: "Operator", tone: "accent" },
  api_key: { label: "API key", tone: "neutral" },
  system: { label: "System", tone: "info" },
};

export interface TargetView {
  /** What kind of thing it is, in words. */
  label: string;
  /** A readable name when the entry recorded one (a key's name, a function's slug and version). */
  name: string | null;
  id: string | null;
  /** The page where the target lives, when there is one worth opening. */
  href: string | null;
}

function text(details: Record<string, unknown>, key: string): string | null {
  const value = details[key];
  return typeof value === "string" && value ? value : null;
}

/** The target of an entry with its page: keys → the Keys page, a function → its page, config → the Config page. */
export function targetView(projectId: string, event: AuditEvent): TargetView {
  const { type, id } = event.target;
  const details = event.details;
  if (type === "api_key") {
    return { label: "API key", name: text(details, "name") ?? text(details, "display"), id, href: projectPath(projectId, "keys") };
  }
  if (type === "function") {
    const slug = text(details, "slug");
    const version = typeof details.version_number === "number" ? ` v${details.version_number}` : "";
    return { label: "Function", name: slug ? `${slug}${version}` : null, id, href: id ? functionPath(projectId, id) : null };
  }
  if (type === "project" && event.action === "config.applied") return { label: "Project config", name: null, id, href: projectPath(projectId, "config") };
  // The signing secret is shown and rotated on the Overview's Webhook card.
  if (type === "project" && event.action === "project.webhook_secret_rotated")
    return { label: "Webhook signing secret", name: null, id, href: projectPath(projectId) };
  return { label: type.replaceAll("_", " "), name: null, id, href: null };
}
