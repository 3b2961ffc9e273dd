"use client";

import Link from "next/link";
import { Badge, CopyButton } from "@/components/ui";
import { JsonTree } from "@/components/webhooks/json-tree";
import type { AuditEvent } from "@/lib/client/audit";
import { ACTOR_TYPES, targetView } from "./vocabulary";

/** The pieces of one audit entry, shared by the table (wide screens) and the stacked list (phones). */

export function ActorSummary({ actor }: { actor: AuditEvent["actor"] }) {
  // Like actions, actor types may grow on the server before this page knows them.
  const type = ACTOR_TYPES[actor.type] ?? { label: actor.type, tone: "neutral" };
  return (
    <div className="flex min-w-0 flex-col items-start gap-1">
      {/* Wraps rather than truncates: a key's "name (svc_live_ab12…9xYz)" is how it is recognised. */}
      <span className="font-medium whitespace-normal text-slate-900 [overflow-wrap:anywhere]">{actor.display}</span>
      <Badge tone={type.tone}>{type.label}</Badge>
    </div>
  );
}

export function TargetSummary({ projectId, event }: { projectId: string; event: AuditEvent }) {
  const target = targetView(projectId, event);
  const title = target.name ?? target.label;
  return (
    <div className="min-w-0">
      {target.href ? (
        <Link
          href={target.href}
          className="font-medium text-slate-900 hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {title}
        </Link>
      ) : (
        <span className="font-medium text-slate-900">{title}</span>
      )}
      <div className="flex min-w-0 items-baseline gap-x-1.5 text-[12px] text-slate-500">
        {target.name && <span className="shrink-0">{target.label}</span>}
        {target.id && (
          <code className="truncate font-mono" title={target.id}>
            {target.id}
          </code>
        )}
      </div>
    </div>
  );
}

export function IpAddress({ ip }: { ip: string | null }) {
  if (!ip) {
    return (
      <span className="text-slate-500" title="Not recorded: the action did not come through an HTTP request (e.g. the admin CLI).">
        —
      </span>
    );
  }
  return <code className="font-mono text-[13px] text-slate-600">{ip}</code>;
}

function exactTime(iso: string): string {
  return new Date(iso).toLocaleString("en", { dateStyle: "medium", timeStyle: "medium" });
}

/** What the entry recorded besides the columns: its details JSON and the ids to quote. */
export function EntryDetails({ event }: { event: AuditEvent }) {
  const empty = Object.keys(event.details).length === 0;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 rounded-md bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200" role="region" aria-label={`Details of ${event.id}`}>
        {empty ? <p className="text-[13px] text-slate-500">No details recorded.</p> : <JsonTree value={event.details} />}
      </div>
      <dl className="space-y-2 text-[13px]">
        <div>
          <dt className="text-xs text-slate-500">Action</dt>
          <dd className="font-mono text-slate-700">{event.action}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Entry ID</dt>
          <dd className="flex items-center gap-1 font-mono text-slate-700">
            <span className="break-all">{event.id}</span>
            <CopyButton value={event.id} label="entry ID" size="xs" />
          </dd>
        </div>
        {event.actor.id && (
          <div>
            <dt className="text-xs text-slate-500">Actor ID</dt>
            <dd className="font-mono break-all text-slate-700">{event.actor.id}</dd>
          </div>
        )}
        <div>
          <dt className="text-xs text-slate-500">Exact time</dt>
          <dd className="text-slate-700">
            <time dateTime={event.created_at}>{exactTime(event.created_at)}</time>
          </dd>
        </div>
      </dl>
    </div>
  );
}
