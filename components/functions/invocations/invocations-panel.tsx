"use client";

import { useState } from "react";
import {
  Button,
  EmptyState,
  ErrorState,
  Field,
  Select,
  SkeletonGroup,
  SkeletonRows,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Table,
  TableContainer,
  Time,
  RowButton,
} from "@/components/ui";
import { useFunctionInvocations, type FunctionInvocation, type InvocationFilters } from "@/lib/client/functions";
import { FUNCTION_EVENT_TYPES, type FunctionEventType } from "@/lib/shared/functions";
import { RunStatusBadge } from "../run/run-output";
import { EVENT_TYPE_LABELS } from "./event-types";
import { InvocationDetailDialog } from "./invocation-detail-dialog";

const ms = (value: number | null) => (value === null ? "—" : `${value.toLocaleString("en")} ms`);

function Filters({ filters, onChange }: { filters: InvocationFilters; onChange: (filters: InvocationFilters) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <Field label="Status" className="w-40">
        <Select value={filters.status ?? ""} onChange={(e) => onChange({ ...filters, status: (e.target.value || undefined) as InvocationFilters["status"] })}>
          <option value="">Any status</option>
          <option value="ok">OK</option>
          <option value="error">Error</option>
        </Select>
      </Field>
      <Field label="Started by" className="w-44">
        <Select
          value={filters.event_type ?? ""}
          onChange={(e) => onChange({ ...filters, event_type: (e.target.value || undefined) as FunctionEventType | undefined })}
        >
          <option value="">Anything</option>
          {FUNCTION_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {EVENT_TYPE_LABELS[type]}
            </option>
          ))}
        </Select>
      </Field>
      {(filters.status || filters.event_type) && (
        <Button variant="ghost" onClick={() => onChange({})}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

function InvocationRow({ invocation, onOpen }: { invocation: FunctionInvocation; onOpen: () => void }) {
  return (
    <TR interactive className="relative" data-testid="invocation-row" data-invocation-id={invocation.id} data-status={invocation.status}>
      <TD>
        <RunStatusBadge status={invocation.status} />
      </TD>
      <TD>
        <RowButton onClick={onOpen} label={`Open the ${EVENT_TYPE_LABELS[invocation.event_type].toLowerCase()} run ${invocation.id}`}>
          {EVENT_TYPE_LABELS[invocation.event_type]}
        </RowButton>
      </TD>
      <TD className="max-w-80 truncate font-mono text-[12px] text-red-700" title={invocation.error ?? undefined}>
        {invocation.error ?? ""}
      </TD>
      <TD numeric>{ms(invocation.duration_ms)}</TD>
      <TD numeric>{ms(invocation.cpu_ms)}</TD>
      <TD className="text-slate-600">
        <Time value={invocation.started_at} />
      </TD>
    </TR>
  );
}

/** Every run of the function (kept 7 days), newest first, filtered by outcome and by who started it; a row opens its detail. */
export function InvocationsPanel({ projectId, functionId }: { projectId: string; functionId: string }) {
  const [filters, setFilters] = useState<InvocationFilters>({});
  const [open, setOpen] = useState<FunctionInvocation | null>(null);
  const invocations = useFunctionInvocations(projectId, functionId, filters);
  const all = invocations.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Boolean(filters.status || filters.event_type);

  return (
    <div className="space-y-4">
      <Filters filters={filters} onChange={setFilters} />
      {invocations.isPending ? (
        <SkeletonGroup label="Loading runs">
          <SkeletonRows rows={4} columns={6} />
        </SkeletonGroup>
      ) : invocations.isError ? (
        <ErrorState error={invocations.error} title="Couldn't load the runs" onRetry={() => void invocations.refetch()} retrying={invocations.isFetching} />
      ) : all.length === 0 ? (
        <EmptyState
          compact
          title={filtered ? "No runs match these filters" : "No runs yet"}
          description={
            filtered
              ? "Clear the filters to see every run of the last 7 days."
              : "Each test, invoke, automation step and tool call shows up here with its logs."
          }
        />
      ) : (
        <>
          <TableContainer label="Runs">
            <Table caption="Runs of this function, newest first">
              <THead>
                <tr>
                  <TH>Status</TH>
                  <TH>Started by</TH>
                  <TH>Error</TH>
                  <TH className="text-right">Duration</TH>
                  <TH className="text-right">CPU</TH>
                  <TH>Started</TH>
                </tr>
              </THead>
              <TBody>
                {all.map((invocation) => (
                  <InvocationRow key={invocation.id} invocation={invocation} onOpen={() => setOpen(invocation)} />
                ))}
              </TBody>
            </Table>
          </TableContainer>
          {invocations.hasNextPage && (
            <div className="flex justify-center">
              <Button onClick={() => void invocations.fetchNextPage()} loading={invocations.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
      <InvocationDetailDialog invocation={open} onClose={() => setOpen(null)} />
    </div>
  );
}
