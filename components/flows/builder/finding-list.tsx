import { AlertIcon } from "@/components/ui";
import type { Finding } from "../model/findings";

/** The findings about one element, next to it: what is wrong and what to do. */
export function FindingList({ findings, label }: { findings: Finding[] | undefined; label: string }) {
  if (!findings?.length) return null;
  return (
    <ul aria-label={label} className="space-y-1.5 rounded-md bg-red-50 px-3 py-2 ring-1 ring-red-600/15 ring-inset">
      {findings.map((finding, index) => (
        <li key={`${finding.code}-${index}`} className="flex gap-2 text-[13px] leading-5 text-red-800" data-finding-code={finding.code}>
          <AlertIcon size={14} className="mt-0.5 shrink-0" />
          <div className="min-w-0">
            <p>
              <span className="font-mono text-[11px] font-medium text-red-700">{finding.code}</span> {finding.message}
            </p>
            {finding.nextSteps && <p className="text-red-700/90">{finding.nextSteps}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}
