import { Button, CheckCircleIcon, InfoIcon } from "@/components/ui";

/** What a tried-out flow ended with: the completion payload (what the submission will hold), or a data_exchange it cannot make here. */
export function TrialResult({ kind, payload, onRestart }: { kind: "complete" | "data_exchange"; payload: Record<string, unknown>; onRestart: () => void }) {
  const entries = Object.entries(payload);
  return (
    <div role="status" className="flex h-full flex-col gap-3 overflow-y-auto bg-white px-4 py-6 text-sm">
      {kind === "complete" ? (
        <p className="flex items-center gap-2 font-semibold text-emerald-800">
          <CheckCircleIcon /> The flow completes with
        </p>
      ) : (
        <p className="flex items-start gap-2 text-slate-700">
          <InfoIcon className="mt-0.5 shrink-0" /> This button asks the flow&apos;s data endpoint for the next screen; the preview cannot call it. It would send
        </p>
      )}
      {entries.length === 0 ? (
        <p className="text-slate-500">An empty payload.</p>
      ) : (
        <dl className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
          {entries.map(([key, value]) => (
            <div key={key} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-2 px-3 py-1.5">
              <dt className="truncate font-mono text-[12px] text-slate-500">{key}</dt>
              <dd className="break-words text-slate-900">{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <Button size="sm" className="self-start" onClick={onRestart}>
        Start over
      </Button>
    </div>
  );
}
