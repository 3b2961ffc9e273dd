import { keyLabel } from "@/components/keys/keys-list";
import type { AuditEvent } from "@/lib/client/audit";
import type { ApiKey } from "@/lib/client/keys";
import type { Member } from "@/lib/client/members";

interface ActorOption {
  /** The actor id the API filters on (actor_id): an operator's user id or a key's id. */
  value: string;
  label: string;
}

export interface ActorGroup {
  label: string;
  options: ActorOption[];
}

/**
 * The actor filter's choices: the organization's operators and the project's keys (revoked ones too:
 * their past actions stay in the log), then anyone else the loaded entries name (a removed member, a
 * deleted key) and a selected id from the URL that none of these know, so the select can show it.
 * The system actor has no id and cannot be filtered on.
 */
export function actorGroups(members: readonly Member[], keys: readonly ApiKey[], entries: readonly AuditEvent[], selected: string): ActorGroup[] {
  const known = new Set<string>();
  const people = [...members].sort((a, b) => a.email.localeCompare(b.email)).map((member) => ({ value: member.user_id, label: member.email }));
  const apiKeys = keys.map((key) => ({ value: key.id, label: `${keyLabel(key)} (${key.display})${key.revoked_at ? ", revoked" : ""}` }));
  for (const option of [...people, ...apiKeys]) known.add(option.value);

  const others: ActorOption[] = [];
  for (const { actor } of entries) {
    if (actor.id === null || known.has(actor.id)) continue;
    known.add(actor.id);
    others.push({ value: actor.id, label: actor.display });
  }
  if (selected && !known.has(selected)) others.push({ value: selected, label: selected });

  return [
    { label: "Operators", options: people },
    { label: "API keys", options: apiKeys },
    { label: "Others", options: others },
  ].filter((group) => group.options.length > 0);
}
