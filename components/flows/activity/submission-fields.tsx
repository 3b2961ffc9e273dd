import type { FlowSubmission } from "@/lib/client/flows";

const show = (value: unknown) => (typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value));

/** A submission's values as key / value pairs (arrays of option ids and booleans as JSON), and its errors when rejected. */
export function SubmissionFields({ submission }: { submission: FlowSubmission }) {
  const entries = Object.entries(submission.submission);
  return (
    <div className="space-y-1.5">
      {entries.length === 0 ? (
        <span className="text-slate-500">Empty</span>
      ) : (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-[13px]">
          {entries.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-mono text-[12px] text-slate-500">{key}</dt>
              <dd className="break-words whitespace-normal text-slate-900">{show(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {submission.errors?.length ? (
        <ul aria-label="Submission errors" className="space-y-0.5 text-xs text-red-700">
          {submission.errors.map((error, index) => (
            <li key={index}>
              <span className="font-mono">{error.field}</span>: {error.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
