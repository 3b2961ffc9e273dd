"use client";

import { useMemo, useState } from "react";
import { Badge, Button, ConfirmDialog, useToast } from "@/components/ui";
import { useDeployFunction, type HostedFunction } from "@/lib/client/functions";
import { FUNCTION_RUNTIMES, MAX_SOURCE_CHARS, type FunctionRuntimeName } from "@/lib/shared/functions";
import { diagnosticMarkers } from "../model/diagnostics";
import { RUNTIME_LABELS } from "../model/starters";
import { DeployOutcome } from "./deploy-outcome";
import { LazyFunctionCodeEditor } from "./function-code-lazy";
import type { SourceDraft } from "./use-source-draft";

function deployBlocker(text: string, canWrite: boolean): string | null {
  if (!canWrite) return "Your role can't deploy.";
  if (!text.trim()) return "Write some code first.";
  if (text.length > MAX_SOURCE_CHARS) return `The source is ${text.length.toLocaleString("en")} characters; at most ${MAX_SOURCE_CHARS.toLocaleString("en")}.`;
  return null;
}

function DraftState({ fn, dirty }: { fn: HostedFunction; dirty: boolean }) {
  if (!fn.active_version_id) return <Badge tone="warning">Not deployed yet</Badge>;
  if (dirty) {
    return (
      <Badge tone="warning" dot>
        Edited since the last deploy
      </Badge>
    );
  }
  return <span className="text-[13px] text-slate-500">Live: {fn.script_name}</span>;
}

/** Before the first deploy: which runtime's starter the editor holds (switching replaces the text, after asking when it was edited). */
function StarterPicker({ draft }: { draft: SourceDraft }) {
  const [asking, setAsking] = useState<FunctionRuntimeName | null>(null);
  const pick = (runtime: FunctionRuntimeName) => (draft.dirty ? setAsking(runtime) : draft.chooseStarter(runtime));
  return (
    <>
      <div role="group" aria-label="Starter" className="inline-flex items-center gap-1 rounded-md bg-slate-100 p-0.5">
        {FUNCTION_RUNTIMES.map((runtime) => (
          <button
            key={runtime}
            type="button"
            aria-pressed={draft.starterRuntime === runtime}
            onClick={() => draft.starterRuntime !== runtime && pick(runtime)}
            className="rounded px-2 py-1 text-xs font-medium text-slate-600 aria-pressed:bg-white aria-pressed:text-slate-900 aria-pressed:shadow-xs focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {RUNTIME_LABELS[runtime]}
          </button>
        ))}
      </div>
      <ConfirmDialog
        open={asking !== null}
        onClose={() => setAsking(null)}
        tone="primary"
        title="Replace your code with the starter?"
        description={asking ? `The editor's text becomes the ${RUNTIME_LABELS[asking]} starter; your edits are lost.` : undefined}
        confirmLabel="Replace code"
        onConfirm={() => {
          if (asking) draft.chooseStarter(asking);
          setAsking(null);
        }}
      />
    </>
  );
}

/** The source editor with Deploy: a failed deploy's diagnostics become markers and a list; a good one names the new version. */
export function CodeSection({
  projectId,
  fn,
  draft,
  canWrite,
  secretNames,
}: {
  projectId: string;
  fn: HostedFunction;
  draft: SourceDraft;
  canWrite: boolean;
  secretNames: readonly string[];
}) {
  const toast = useToast();
  const deploy = useDeployFunction(projectId, fn.id);
  const blocker = deployBlocker(draft.text, canWrite);
  const markers = useMemo(
    () => (deploy.data?.status === "error" && deploy.variables !== undefined ? diagnosticMarkers(deploy.variables, deploy.data.diagnostics) : []),
    [deploy.data, deploy.variables],
  );

  const run = () => {
    if (blocker || deploy.isPending) return;
    deploy.mutate(draft.text, {
      onSuccess: (answer) => {
        if (answer.status === "ok") toast.show({ tone: "success", title: "Deployed", description: `Version ${answer.version_id} is live.` });
      },
    });
  };

  return (
    <section aria-labelledby="function-source-title" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="function-source-title" className="text-sm font-semibold text-slate-900">
            Source
          </h2>
          <DraftState fn={fn} dirty={draft.dirty} />
          {fn.source === null && canWrite && <StarterPicker draft={draft} />}
        </div>
        <Button
          variant="primary"
          onClick={run}
          loading={deploy.isPending}
          disabled={Boolean(blocker)}
          title={blocker ?? "Deploy (Ctrl+S in the editor)"}
          aria-keyshortcuts="Control+S Meta+S"
          data-testid="function-deploy"
        >
          Deploy
        </Button>
      </div>
      <LazyFunctionCodeEditor
        functionId={fn.id}
        value={draft.text}
        onChange={draft.setText}
        onDeploy={run}
        markers={markers}
        secretNames={secretNames}
        readOnly={!canWrite}
        label="Function source"
      />
      {blocker && canWrite && <p className="text-xs text-slate-500">{blocker}</p>}
      <DeployOutcome
        deploy={deploy.data}
        scriptName={deploy.data?.status === "ok" && fn.active_version_id === deploy.data.version_id ? fn.script_name : null}
        hasLiveVersion={Boolean(fn.active_version_id)}
        error={deploy.error}
      />
    </section>
  );
}
