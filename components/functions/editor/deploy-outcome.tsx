"use client";

import { Badge, CheckCircleIcon, FormError } from "@/components/ui";
import type { FunctionDeploy } from "@/lib/client/functions";
import { parseDiagnostic, positionLabel } from "../model/diagnostics";

/**
 * The last deploy's answer under the editor: the new version, or why nothing changed (each diagnostic
 * with its line and column; the same ones are markers in the editor). A refused request (too long,
 * no permission) is a plain error.
 */
export function DeployOutcome({
  deploy,
  scriptName,
  hasLiveVersion,
  error,
}: {
  deploy: FunctionDeploy | undefined;
  scriptName: string | null;
  hasLiveVersion: boolean;
  error: Error | null;
}) {
  if (error) return <FormError>{error.message}</FormError>;
  if (!deploy) return null;
  if (deploy.status === "ok") {
    return (
      <p role="status" data-testid="deploy-outcome" data-status="ok" className="flex flex-wrap items-center gap-2 text-sm text-emerald-800">
        <CheckCircleIcon className="text-emerald-600" />
        Deployed{scriptName ? <code className="font-mono text-[12px]">{scriptName}</code> : null}
        <span className="text-slate-500">
          · version <code className="font-mono text-[12px]">{deploy.version_id}</code> · {deploy.runtime} · {deploy.bytes.toLocaleString("en")} bytes
        </span>
      </p>
    );
  }
  const diagnostics = deploy.diagnostics.map(parseDiagnostic);
  return (
    <div role="alert" data-testid="deploy-outcome" data-status="error" className="rounded-md bg-red-50 px-3 py-2.5 text-sm ring-1 ring-red-600/15 ring-inset">
      <p className="font-medium text-red-800">
        {hasLiveVersion ? "Deploy failed: nothing changed, the live version keeps running." : "Deploy failed: nothing was deployed."}
      </p>
      <ul aria-label="Deploy diagnostics" data-testid="deploy-diagnostics" className="mt-1.5 space-y-1">
        {diagnostics.map((diagnostic, index) => (
          <li key={index} className="flex flex-wrap items-baseline gap-x-2 font-mono text-[12px] text-red-700">
            {positionLabel(diagnostic) && <Badge tone="danger">{positionLabel(diagnostic)}</Badge>}
            <span className="whitespace-pre-wrap">{diagnostic.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
