"use client";

import { Badge, RowLink, Table, TableContainer, TBody, TD, TH, THead, Time, TR } from "@/components/ui";
import type { FunctionStat, HostedFunction } from "@/lib/client/functions";
import { FunctionStatus, RuntimeLabel, TRIGGER_LABELS } from "./function-badges";
import { errorRate } from "./model/error-rate";
import { functionPath } from "./paths";

function ErrorRateCell({ stat, loading }: { stat: FunctionStat | undefined; loading: boolean }) {
  if (loading) return <span className="text-slate-500">…</span>;
  const rate = errorRate(stat);
  if (rate.tone === "neutral") return <span className="text-[13px] text-slate-500">{rate.label}</span>;
  return (
    <span title={rate.detail}>
      <Badge tone={rate.tone}>{rate.label}</Badge>
      <span className="sr-only"> ({rate.detail})</span>
    </span>
  );
}

function FunctionRow({ projectId, fn, stat, statsLoading }: { projectId: string; fn: HostedFunction; stat: FunctionStat | undefined; statsLoading: boolean }) {
  return (
    <TR interactive className="relative" data-function-id={fn.id}>
      <TD className="max-w-72">
        <RowLink href={functionPath(projectId, fn.id)}>{fn.name}</RowLink>
        <p className="truncate font-mono text-[12px] text-slate-500">{fn.slug}</p>
      </TD>
      <TD>
        <FunctionStatus fn={fn} />
      </TD>
      <TD className="text-slate-600">{TRIGGER_LABELS[fn.trigger_type]}</TD>
      <TD>
        <RuntimeLabel fn={fn} />
      </TD>
      <TD className="text-slate-600">
        <Time value={fn.last_deployed_at} fallback="Never" />
      </TD>
      <TD>
        <ErrorRateCell stat={stat} loading={statsLoading} />
      </TD>
    </TR>
  );
}

/** Every function of the project with its status, runtime, last deploy and the error rate of its last 24 h of runs. */
export function FunctionsTable({
  projectId,
  functions,
  stats,
  statsLoading,
}: {
  projectId: string;
  functions: HostedFunction[];
  stats: Map<string, FunctionStat> | undefined;
  statsLoading: boolean;
}) {
  return (
    <TableContainer label="Functions">
      <Table caption="Hosted functions of this project">
        <THead>
          <tr>
            <TH>Name</TH>
            <TH>Status</TH>
            <TH>Trigger</TH>
            <TH>Runtime</TH>
            <TH>Last deploy</TH>
            <TH>Errors (24 h)</TH>
          </tr>
        </THead>
        <TBody>
          {functions.map((fn) => (
            <FunctionRow key={fn.id} projectId={projectId} fn={fn} stat={stats?.get(fn.id)} statsLoading={statsLoading} />
          ))}
        </TBody>
      </Table>
    </TableContainer>
  );
}
