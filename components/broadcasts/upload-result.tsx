import { Button, FormError } from "@/components/ui";
import type { LineError } from "./model/recipients-csv";
import type { UploadState } from "./use-recipient-upload";

const SHOWN_ERRORS = 50;

/** Problems by line and column: "Line 7, column phone: …"; long lists are cut with a count of the rest. */
export function LineErrors({ title, errors, testId }: { title: string; errors: readonly LineError[]; testId: string }) {
  if (errors.length === 0) return null;
  const sorted = [...errors].sort((a, b) => a.line - b.line);
  return (
    <div className="rounded-md bg-red-50 px-3 py-2 text-[13px] text-red-900 ring-1 ring-red-600/15 ring-inset" data-testid={testId}>
      <p className="font-medium">
        {title} ({errors.length})
      </p>
      <ul className="mt-1 max-h-48 space-y-0.5 overflow-y-auto">
        {sorted.slice(0, SHOWN_ERRORS).map((error, index) => (
          <li key={`${error.line}-${index}`}>
            <span className="font-medium">
              Line {error.line}
              {error.column ? <>, column {error.column}</> : null}:
            </span>{" "}
            {error.message}
          </li>
        ))}
      </ul>
      {sorted.length > SHOWN_ERRORS && <p className="mt-1 text-red-800">…and {sorted.length - SHOWN_ERRORS} more.</p>}
    </div>
  );
}

/** How the chunked upload went: its progress, what the server added, skipped as duplicates or refused by line. */
export function UploadResult({ state, onRetry }: { state: UploadState; onRetry: () => void }) {
  if (state.phase === "idle") return null;
  return (
    <div className="space-y-2" data-testid="recipient-upload-result">
      <p role="status" className="text-sm text-slate-700">
        {state.phase === "uploading" && `Uploading… ${state.uploaded} of ${state.total}`}
        {state.phase !== "uploading" && (
          <>
            {state.phase === "done" ? "Upload finished" : `Upload stopped after ${state.uploaded} of ${state.total}`}: {state.added} added, {state.duplicates}{" "}
            already on the list, {state.errors.length} refused.
          </>
        )}
      </p>
      {state.phase === "failed" && (
        <div className="flex flex-wrap items-center gap-3">
          <FormError>{state.error instanceof Error ? state.error.message : "The upload failed."}</FormError>
          <Button size="sm" onClick={onRetry}>
            Retry upload
          </Button>
        </div>
      )}
      <LineErrors title="Rows the server refused" errors={state.errors} testId="recipient-server-errors" />
    </div>
  );
}
