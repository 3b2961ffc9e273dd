"use client";

import { Button, Field, Select } from "@/components/ui";
import type { AuditEvent } from "@/lib/client/audit";
import { useKeys } from "@/lib/client/keys";
import { useMembers } from "@/lib/client/members";
import { actorGroups } from "./actor-options";
import { NO_FILTERS, type AuditParams } from "./use-audit-params";
import { ACTION_GROUPS, ACTION_LABELS, AUDIT_TARGET_TYPES, TARGET_LABELS } from "./vocabulary";

/** Action, target type and actor of the log (the API's `action`, `target_type`, `actor_id`); each change lands in the URL at once. */
export function AuditFilters({
  projectId,
  params,
  entries,
  onChange,
  hasFilters,
}: {
  projectId: string;
  params: AuditParams;
  entries: readonly AuditEvent[];
  onChange: (changes: Partial<AuditParams>) => void;
  hasFilters: boolean;
}) {
  // Every role may read both lists; if one fails the filter still offers whoever the entries name.
  const members = useMembers(projectId);
  const keys = useKeys(projectId);
  const groups = actorGroups(members.data ?? [], keys.data ?? [], entries, params.actor);

  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="Action" className="w-full sm:w-64">
        <Select value={params.action} onChange={(e) => onChange({ action: e.target.value })}>
          <option value="">All actions</option>
          {ACTION_GROUPS.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.actions.map((action) => (
                <option key={action} value={action}>
                  {ACTION_LABELS[action]}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </Field>
      <Field label="Target" className="w-full sm:w-52">
        <Select value={params.target} onChange={(e) => onChange({ target: e.target.value })}>
          <option value="">Anything</option>
          {AUDIT_TARGET_TYPES.map((type) => (
            <option key={type} value={type}>
              {TARGET_LABELS[type]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Actor" className="w-full sm:w-80">
        <Select value={params.actor} onChange={(e) => onChange({ actor: e.target.value })}>
          <option value="">Anyone</option>
          {groups.map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </Field>
      {hasFilters && (
        <Button variant="ghost" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
