import { JsonTree } from "@/components/webhooks/json-tree";
import { Badge, CopyButton } from "@/components/ui";
import type { FunctionLogLine } from "@/lib/client/functions";
import { LogLines } from "./log-lines";

/** What a run produced, from a test/invoke answer or an invocation log entry (whose measurements may be null). */
export interface RunFacts {
  invocationId: string;
  versionId: string | null;
  status: "ok" | "error";
  result: unknown;
  error: string | null;
  logs: FunctionLogLine[];
  cpu_ms: number | null;
  duration_ms: number | null;
  sub_requests: number | null;
}

function Metric({ label, value, unit }: { label: string; value: number | null; unit?: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-mono text-[13px] text-slate-900 tabular-nums">{value === null ? "—" : `${value.toLocaleString("en")}${unit ? ` ${unit}` : ""}`}</dd>
    </div>
  );
}

export function RunStatusBadge({ status }: { status: "ok" | "error" }) {
  return (
    <Badge tone={status === "ok" ? "success" : "danger"} dot>
      {status === "ok" ? "OK" : "Error"}
    </Badge>
  );
}

/** Status, measurements, error, the JSON result and the logs of one run. */
export function RunOutput({ run }: { run: RunFacts }) {
  return (
    <div className="space-y-4" data-testid="run-output" data-status={run.status}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-[13px] text-slate-500">
        <RunStatusBadge status={run.status} />
        <span className="inline-flex items-center gap-1">
          Invocation <code className="font-mono text-[12px] text-slate-700">{run.invocationId}</code>
          <CopyButton value={run.invocationId} label="invocation id" size="xs" />
        </span>
        {run.versionId && (
          <span>
            Version <code className="font-mono text-[12px] text-slate-700">{run.versionId}</code>
          </span>
        )}
      </div>
      <dl className="grid grid-cols-3 gap-3">
        <Metric label="CPU" value={run.cpu_ms} unit="ms" />
        <Metric label="Duration" value={run.duration_ms} unit="ms" />
        <Metric label="Fetches" value={run.sub_requests} />
      </dl>
      {run.error && (
        <div>
          <h4 className="mb-1 text-xs font-medium text-slate-500">Error</h4>
          <pre
            data-testid="run-error"
            className="overflow-x-auto rounded-md bg-red-50 px-3 py-2 font-mono text-[12px] whitespace-pre-wrap text-red-800 ring-1 ring-red-600/15 ring-inset"
          >
            {run.error}
          </pre>
        </div>
      )}
      {run.status === "ok" && (
        <div>
          <h4 className="mb-1 text-xs font-medium text-slate-500">Result</h4>
          <div
            role="region"
            aria-label="Result JSON"
            tabIndex={0}
            data-testid="run-result"
            className="max-h-72 overflow-auto rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <JsonTree value={run.result ?? null} />
          </div>
        </div>
      )}
      <div>
        <h4 className="mb-1 text-xs font-medium text-slate-500">Logs</h4>
        <LogLines logs={run.logs} />
      </div>
    </div>
  );
}
