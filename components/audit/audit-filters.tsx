"use client";

import { Button, Field, Select } from "@/components/ui";
import type { AuditEvent } from "@/lib/client/audit";
import { useKeys } from "@/lib/client/keys";
import { useMembers } from "@/lib/client/members";
import { actorGroups } from "./actor-options";
import type { AuditParams } from "./use-audit-params";
import { ACTION_LABELS, AUDIT_ACTIONS } from "./vocabulary";

/** Action and actor of the log (the API's `action` and `actor_id`); each change lands in the URL at once. */
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
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {ACTION_LABELS[action]}
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
        <Button variant="ghost" onClick={() => onChange({ action: "", actor: "" })}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
