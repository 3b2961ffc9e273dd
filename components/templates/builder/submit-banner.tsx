import { AlertIcon } from "@/components/ui";
import type { PlacedIssues } from "../model/issues";
import type { SubmitProblem } from "../model/submit-error";

/**
 * Why the last submit was refused, above the form: the channel's blockers (412), the provider's
 * rejection (422), or how many fields a 400 marked, plus any issue no field shows.
 */
export function SubmitBanner({ problem, otherIssues }: { problem: SubmitProblem | null; otherIssues: PlacedIssues["rest"] }) {
  if (!problem) return null;
  return (
    <div
      role="alert"
      data-testid="template-submit-error"
      data-error-code={problem.code}
      className="rounded-lg bg-red-50 px-4 py-3 ring-1 ring-red-600/20 ring-inset"
    >
      <p className="flex items-center gap-2 text-sm font-semibold text-red-800">
        <AlertIcon className="shrink-0 text-red-600" />
        {problem.title}
      </p>
      <p className="mt-1 text-[13px] text-red-700">{problem.message}</p>
      {problem.details.length > 0 && (
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-[13px] text-red-700">
          {problem.details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {otherIssues.length > 0 && (
        <ul className="mt-2 space-y-0.5 text-[13px] text-red-700">
          {otherIssues.map(({ path, messages }) => (
            <li key={path}>
              <code className="font-mono text-[12px]">{path}</code>: {messages.join(" ")}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
