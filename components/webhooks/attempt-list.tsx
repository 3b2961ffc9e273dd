"use client";

import { Badge, Card, CardHeader, Spinner, Time, cn } from "@/components/ui";
import type { WebhookAttempt, WebhookDeliveryDetail } from "@/lib/client/webhooks";
import { formatDuration, isSuccessCode } from "./format";

function Outcome({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.status_code !== null) {
    return (
      <Badge tone={isSuccessCode(attempt.status_code) ? "success" : "danger"} dot>
        HTTP {attempt.status_code}
      </Badge>
    );
  }
  return (
    <Badge tone="danger" dot>
      No response
    </Badge>
  );
}

function AttemptItem({ attempt }: { attempt: WebhookAttempt }) {
  const ok = isSuccessCode(attempt.status_code);
  return (
    <li className="relative px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <span
          className={cn(
            "flex size-6 items-center justify-center rounded-full text-xs font-semibold tabular-nums ring-1 ring-inset",
            ok ? "bg-emerald-50 text-emerald-700 ring-emerald-600/20" : "bg-red-50 text-red-700 ring-red-600/20",
          )}
        >
          {attempt.attempt_number}
        </span>
        <h3 className="text-sm font-medium text-slate-900">Attempt {attempt.attempt_number}</h3>
        <Outcome attempt={attempt} />
        <span className="text-[13px] text-slate-500 tabular-nums">{formatDuration(attempt.duration_ms)}</span>
        <span className="text-[13px] text-slate-500">
          <Time value={attempt.started_at} format="absolute" /> · <Time value={attempt.started_at} />
        </span>
      </div>
      <dl className="mt-3 space-y-2 pl-9 text-[13px]">
        <div className="flex min-w-0 gap-2">
          <dt className="w-16 shrink-0 text-slate-500">URL</dt>
          <dd className="min-w-0 font-mono break-all text-slate-700">{attempt.url}</dd>
        </div>
        {attempt.error && (
          <div className="flex min-w-0 gap-2">
            <dt className="w-16 shrink-0 text-slate-500">Error</dt>
            <dd className="min-w-0 break-words text-red-700">{attempt.error}</dd>
          </div>
        )}
        <div className="flex min-w-0 flex-col gap-1.5 sm:flex-row sm:gap-2">
          <dt className="w-16 shrink-0 text-slate-500">Response</dt>
          <dd className="min-w-0 flex-1">
            {attempt.response_excerpt ? (
              <pre
                aria-label={`Response body of attempt ${attempt.attempt_number}`}
                className="max-h-48 overflow-auto rounded-md bg-slate-50 px-3 py-2 font-mono text-[12.5px] leading-5 whitespace-pre-wrap break-all text-slate-800 ring-1 ring-slate-200 ring-inset"
              >
                {attempt.response_excerpt}
              </pre>
            ) : (
              <span className="text-slate-500">{attempt.status_code === null ? "No response received." : "Empty body."}</span>
            )}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** Every attempt of a delivery, oldest first, and the next one when a retry is scheduled. */
export function AttemptList({ delivery }: { delivery: WebhookDeliveryDetail }) {
  const { attempts } = delivery;
  const waiting = delivery.status === "pending";
  return (
    <Card>
      <CardHeader title={`Attempts (${attempts.length})`} description="Each try to reach your endpoint, with the first 2 KB of what it answered." />
      {attempts.length === 0 && !waiting && (
        <p className="px-4 py-6 text-sm text-slate-500 sm:px-5">
          No attempts were made{delivery.status === "paused" ? ": the endpoint is paused until the webhook URL is updated." : "."}
        </p>
      )}
      <ol className="divide-y divide-slate-100">
        {attempts.map((attempt) => (
          <AttemptItem key={attempt.id} attempt={attempt} />
        ))}
        {waiting && (
          <li className="flex items-center gap-3 px-4 py-4 text-[13px] text-slate-600 sm:px-5">
            <Spinner className="text-sky-600" />
            {delivery.next_attempt_at && new Date(delivery.next_attempt_at).getTime() > Date.now() + 1000 ? (
              <span>
                Next attempt <Time value={delivery.next_attempt_at} /> (<Time value={delivery.next_attempt_at} format="absolute" />
                ). This page updates on its own.
              </span>
            ) : (
              <span>{attempts.length === 0 ? "Sending the first attempt…" : "Sending the next attempt…"}</span>
            )}
          </li>
        )}
      </ol>
    </Card>
  );
}
