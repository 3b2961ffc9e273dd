"use client";

import Link from "next/link";
import { Badge, CopyButton } from "@/components/ui";
import { JsonTree } from "@/components/webhooks/json-tree";
import type { AuditEvent } from "@/lib/client/audit";
import { ACTOR_TYPES, actionLabel, targetLabel } from "./vocabulary";
import { sentenceOf, sentenceText } from "./sentences";

/** The pieces of one audit entry, shared by the table (wide screens) and the stacked list (phones). */

/** What happened, as a sentence: the actor first, names set in code, the target linked to its page. */
export function EntrySentence({ projectId, event }: { projectId: string; event: AuditEvent }) {
  const parts = sentenceOf(projectId, event);
  return (
    <p className="leading-6 text-slate-700 [overflow-wrap:anywhere]" data-sentence={sentenceText(parts)}>
      {parts.map((part, i) => {
        if (part.kind === "text") return <span key={i}>{part.text}</span>;
        if (part.kind === "name" && i === 0) {
          return (
            <span key={i} className="font-medium text-slate-900">
              {part.text}
            </span>
          );
        }
        if (part.kind === "name") {
          return (
            <code key={i} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[12.5px] text-slate-800">
              {part.text}
            </code>
          );
        }
        return part.href ? (
          <Link key={i} href={part.href} className="font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600">
            {part.text}
          </Link>
        ) : (
          <span key={i} className="font-medium text-slate-900">
            {part.text}
          </span>
        );
      })}
    </p>
  );
}

/** Under the sentence: what kind of actor it was, the action's name, and the target's kind and id to quote. */
export function EntryFacts({ event, withAction = true }: { event: AuditEvent; withAction?: boolean }) {
  // Like actions, actor types may grow on the server before this page knows them.
  const type = ACTOR_TYPES[event.actor.type] ?? { label: event.actor.type, tone: "neutral" };
  return (
    <div className="mt-1 flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-[12px] text-slate-500">
      <Badge tone={type.tone}>{type.label}</Badge>
      {withAction && (
        <>
          <span>{actionLabel(event.action)}</span>
          <span aria-hidden="true">·</span>
        </>
      )}
      <span>{targetLabel(event.target.type)}</span>
      {event.target.id && (
        <code className="truncate font-mono" title={event.target.id}>
          {event.target.id}
        </code>
      )}
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
