"use client";

import { AlertIcon, Button } from "@/components/ui";
import type { Finding } from "../model/findings";

export interface ValidationSummaryProps {
  findings: Finding[];
  /** Moves focus to the element a finding points at; absent where the findings have no place (a Flow JSON flow's builder). */
  onShow?: (finding: Finding) => void;
  /** Which findings have a place to show. */
  canShow?: (finding: Finding) => boolean;
}

/** Every finding at the top of the editor: how many, what, what to do, and a way to each one's place. */
export function ValidationSummary({ findings, onShow, canShow }: ValidationSummaryProps) {
  if (findings.length === 0) return null;
  return (
    <section aria-label="Validation problems" className="rounded-lg bg-white ring-1 ring-red-200">
      <h2 className="flex items-center gap-2 border-b border-red-100 px-4 py-2.5 text-sm font-semibold text-red-800">
        <AlertIcon />
        {findings.length} {findings.length === 1 ? "problem" : "problems"} to fix
        <span className="font-normal text-red-700/80">· from the last save{findings.some((f) => f.source === "provider") ? " and publish" : ""}</span>
      </h2>
      <ul className="max-h-60 divide-y divide-red-50 overflow-y-auto">
        {findings.map((finding, index) => (
          <li key={`${finding.code}-${index}`} className="flex items-start justify-between gap-3 px-4 py-2 text-[13px]">
            <div className="min-w-0">
              <p className="text-slate-900">
                <span className="mr-1.5 font-mono text-[11px] font-medium text-red-700">{finding.code}</span>
                {finding.message}
              </p>
              {finding.nextSteps && <p className="text-slate-600">{finding.nextSteps}</p>}
              {finding.path && <p className="font-mono text-[11px] text-slate-500">{finding.path}</p>}
              {finding.lines && <p className="text-[11px] text-slate-500">Flow JSON line {finding.lines.start}</p>}
            </div>
            {onShow && (canShow?.(finding) ?? true) && (
              <Button size="sm" variant="ghost" onClick={() => onShow(finding)} aria-label={`Show where: ${finding.message}`}>
                Show
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
