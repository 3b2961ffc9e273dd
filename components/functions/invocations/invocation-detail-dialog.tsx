"use client";

import { JsonTree } from "@/components/webhooks/json-tree";
import { Dialog, Time } from "@/components/ui";
import type { FunctionInvocation } from "@/lib/client/functions";
import { RunOutput } from "../run/run-output";
import { EVENT_TYPE_LABELS } from "./event-types";

/** One run of the log: what it received (the event; secrets are never part of it), and what it produced. */
export function InvocationDetailDialog({ invocation, onClose }: { invocation: FunctionInvocation | null; onClose: () => void }) {
  return (
    <Dialog
      open={invocation !== null}
      onClose={onClose}
      size="lg"
      title={invocation ? `${EVENT_TYPE_LABELS[invocation.event_type]} run` : "Run"}
      description={invocation ? <Time value={invocation.started_at} format="absolute" /> : undefined}
    >
      {invocation && (
        <div className="space-y-5" data-testid="invocation-detail">
          <RunOutput
            run={{
              invocationId: invocation.id,
              versionId: invocation.version_id,
              status: invocation.status,
              result: invocation.result,
              error: invocation.error,
              logs: invocation.logs,
              cpu_ms: invocation.cpu_ms,
              duration_ms: invocation.duration_ms,
              sub_requests: invocation.sub_requests,
            }}
          />
          <div>
            <h4 className="mb-1 text-xs font-medium text-slate-500">Input (the event)</h4>
            <div
              role="region"
              aria-label="Input JSON"
              tabIndex={0}
              className="max-h-72 overflow-auto rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <JsonTree value={invocation.input ?? null} />
            </div>
          </div>
        </div>
      )}
    </Dialog>
  );
}
