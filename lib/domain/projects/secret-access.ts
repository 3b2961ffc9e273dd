import type { Actor } from "@/lib/domain/context";
import { hasScope } from "@/lib/shared/scopes";
import { isRole, scopesOfRole } from "@/lib/domain/members/roles";

/**
 * Who may receive a project's webhook signing secret (docs/api-decisions.md, Dashboard: "The signing
 * secret"). An operator needs the scope that lets them rotate it, `projects:write`: whoever can change
 * the secret can already obtain a fresh one, so reading it grants nothing more, and the read-only
 * viewer role never receives it. API keys keep the spec's contract (GET /projects/{id} returns the
 * secret under projects:read); a viewer cannot obtain a key (creating one needs keys:write).
 */
const WEBHOOK_SECRET_SCOPE = "projects:write";

export function maySeeWebhookSecret(actor: Actor): boolean {
  switch (actor.type) {
    case "user":
      return isRole(actor.role) && hasScope(scopesOfRole(actor.role), WEBHOOK_SECRET_SCOPE);
    case "api_key":
    case "system":
      return true;
  }
}
