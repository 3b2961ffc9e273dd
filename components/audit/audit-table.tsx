"use client";

import { useId, useState } from "react";
import type { ComponentPropsWithRef } from "react";
import { ChevronRightIcon, TBody, THead, TR, Table, TableContainer, Time, cn } from "@/components/ui";
import type { AuditEvent } from "@/lib/client/audit";
import { EntryDetails, EntryFacts, EntrySentence, IpAddress } from "./entry-parts";
import { actionLabel } from "./vocabulary";

const COLUMNS = 4;

// Four columns in the dashboard's content width: cells tighter than TD/TH's px-4 (cn only joins classes,
// so overriding theirs would depend on the order Tailwind emits px-3 and px-4).
function Cell({ className, ...props }: ComponentPropsWithRef<"td">) {
  return <td className={cn("px-3 py-3 align-top text-slate-700", className)} {...props} />;
}

function HeadCell({ className, ...props }: ComponentPropsWithRef<"th">) {
  return <th scope="col" className={cn("h-9 px-3 text-xs font-medium whitespace-nowrap text-slate-500", className)} {...props} />;
}

/** Attributes the e2e spec (and anyone debugging in devtools) reads an entry's facts from. */
function dataOf(event: AuditEvent) {
  return { "data-audit-id": event.id, "data-action": event.action, "data-actor-type": event.actor.type, "data-target-id": event.target.id ?? "" };
}

function Chevron({ open }: { open: boolean }) {
  return <ChevronRightIcon size={14} className={cn("shrink-0 transition-transform motion-reduce:transition-none", open && "rotate-90")} />;
}

function EntryRow({ projectId, event }: { projectId: string; event: AuditEvent }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const label = actionLabel(event.action);
  return (
    <>
      <TR className={cn(open && "border-b-0 bg-slate-50/60")} {...dataOf(event)}>
        <Cell className="w-10 pr-0">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`Details of ${label} by ${event.actor.display}`}
            onClick={() => setOpen((o) => !o)}
            className="-my-1 inline-flex size-7 items-center justify-center rounded-md text-slate-500 hover:bg-slate-200/70 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <Chevron open={open} />
          </button>
        </Cell>
        <Cell className="whitespace-nowrap text-slate-600">
          <Time value={event.created_at} />
        </Cell>
        <Cell>
          {/* The table is at least as wide as its cells' longest lines (Table's min-w-max): a capped width
              lets a long sentence wrap instead of pushing the IP column out of view. */}
          <div className="max-w-[20rem] xl:max-w-[34rem]">
            <EntrySentence projectId={projectId} event={event} />
            <EntryFacts event={event} />
          </div>
        </Cell>
        <Cell className="whitespace-nowrap">
          <IpAddress ip={event.ip} />
        </Cell>
      </TR>
      {/* Always in the DOM (hidden while folded) so aria-controls always points at something. */}
      <tr id={detailsId} hidden={!open} className="bg-slate-50/60">
        <td colSpan={COLUMNS} className="px-3 pt-1 pb-4 pl-12">
          {/* Zero width, full width: the JSON wraps to the table's width instead of widening it. */}
          <div className="w-0 min-w-full">{open && <EntryDetails event={event} />}</div>
        </td>
      </tr>
    </>
  );
}

function EntryCard({ projectId, event }: { projectId: string; event: AuditEvent }) {
  return (
    <li className="space-y-2.5 px-4 py-3.5 text-sm" {...dataOf(event)}>
      <div className="flex items-start justify-between gap-3">
        <span className="text-xs font-medium text-slate-500">{actionLabel(event.action)}</span>
        <Time value={event.created_at} className="shrink-0 text-xs text-slate-500" />
      </div>
      <EntrySentence projectId={projectId} event={event} />
      <EntryFacts event={event} withAction={false} />
      <details className="group">
        <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-sm text-[13px] font-medium text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600 [&::-webkit-details-marker]:hidden">
          <ChevronRightIcon size={14} className="transition-transform group-open:rotate-90 motion-reduce:transition-none" />
          Details
          <span className="ml-2 font-normal text-slate-500">
            from <IpAddress ip={event.ip} />
          </span>
        </summary>
        <div className="mt-2">
          <EntryDetails event={event} />
        </div>
      </details>
    </li>
  );
}

/** The log, newest first: a table from tablet width up, stacked entries on phones. */
export function AuditTable({ projectId, events }: { projectId: string; events: readonly AuditEvent[] }) {
  return (
    <>
      <TableContainer label="Audit log entries" className="hidden md:block">
        <Table caption="Audit log, newest first">
          <THead>
            <tr>
              <HeadCell className="w-10">
                <span className="sr-only">Details</span>
              </HeadCell>
              <HeadCell className="w-40">When</HeadCell>
              <HeadCell>What happened</HeadCell>
              <HeadCell className="w-36">IP</HeadCell>
            </tr>
          </THead>
          <TBody>
            {events.map((event) => (
              <EntryRow key={event.id} projectId={projectId} event={event} />
            ))}
          </TBody>
        </Table>
      </TableContainer>
      <ul aria-label="Audit log entries" className="divide-y divide-slate-100 rounded-lg bg-white shadow-xs ring-1 ring-slate-200 md:hidden">
        {events.map((event) => (
          <EntryCard key={event.id} projectId={projectId} event={event} />
        ))}
      </ul>
    </>
  );
}
