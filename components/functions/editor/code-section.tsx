"use client";

import { useMemo, useState } from "react";
import { Button, ConfirmDialog, FormError, useToast } from "@/components/ui";
import { useDeployFunction, useSaveFunctionDraft, type FunctionDraft, type HostedFunction } from "@/lib/client/functions";
import { FUNCTION_RUNTIMES, MAX_SOURCE_CHARS, type FunctionRuntimeName } from "@/lib/shared/functions";
import { diagnosticMarkers } from "../model/diagnostics";
import { RUNTIME_LABELS } from "../model/starters";
import { DeployDialog } from "./deploy-dialog";
import { DeployOutcome } from "./deploy-outcome";
import { DraftState } from "./draft-state";
import { FunctionCodeArea } from "./function-code-area";
import type { SourceDraft } from "./use-source-draft";

/** Why the code cannot be saved or deployed as it is, in words that say what to do. */
function sourceBlocker(text: string, canWrite: boolean): string | null {
  if (!canWrite) return "Your role can read this function but not change it.";
  if (!text.trim()) return "Write some code first.";
  if (text.length > MAX_SOURCE_CHARS) {
    return `The source is ${text.length.toLocaleString("en")} characters; at most ${MAX_SOURCE_CHARS.toLocaleString("en")}. Shorten it to save or deploy.`;
  }
  return null;
}

function deployBlocker(draft: SourceDraft, canWrite: boolean): string | null {
  return sourceBlocker(draft.text, canWrite) ?? (draft.undeployed ? null : "Nothing to deploy: the editor holds the live code.");
}

/** Before the first deploy: which runtime's starter the editor holds (switching replaces the text, after asking when it was edited). */
function StarterPicker({ draft }: { draft: SourceDraft }) {
  const [asking, setAsking] = useState<FunctionRuntimeName | null>(null);
  const pick = (runtime: FunctionRuntimeName) => (draft.unsaved ? setAsking(runtime) : draft.chooseStarter(runtime));
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

/**
 * The source editor. Save (and Ctrl/Cmd+S) keeps the code as the function's draft, which runs nowhere;
 * Deploy opens a confirmation with the diff against the live code, and only its button deploys (saving
 * the draft first, so a deploy that fails leaves the code saved). A failed deploy's diagnostics become
 * markers and a list; a good one names the new version.
 */
export function CodeSection({
  projectId,
  fn,
  saved,
  draft,
  canWrite,
  secretNames,
}: {
  projectId: string;
  fn: HostedFunction;
  saved: FunctionDraft;
  draft: SourceDraft;
  canWrite: boolean;
  secretNames: readonly string[];
}) {
  const toast = useToast();
  const deploy = useDeployFunction(projectId, fn.id);
  const save = useSaveFunctionDraft(projectId, fn.id);
  const [confirming, setConfirming] = useState(false);
  const saveBlocker = sourceBlocker(draft.text, canWrite);
  const blocker = deployBlocker(draft, canWrite);
  const markers = useMemo(
    () => (deploy.data?.status === "error" && deploy.variables !== undefined ? diagnosticMarkers(deploy.variables, deploy.data.diagnostics) : []),
    [deploy.data, deploy.variables],
  );

  const saveDraft = () => {
    if (saveBlocker || save.isPending) return;
    if (!draft.unsaved && draft.saved !== null) {
      toast.show({ title: "Draft already saved", description: "It is not deployed: Deploy puts it live." });
      return;
    }
    // Back to the live code: a draft equal to it would only say "not deployed" about nothing.
    const discard = draft.live !== null && draft.text === draft.live;
    if (discard && draft.saved === null) {
      toast.show({ title: "Nothing to save", description: "The editor holds the live code." });
      return;
    }
    save.mutate(discard ? null : draft.text, {
      onSuccess: () =>
        toast.show(
          discard
            ? { tone: "success", title: "Draft discarded", description: "The editor holds the live code again." }
            : { tone: "success", title: "Draft saved — not deployed", description: "What runs is unchanged. Deploy when it is ready." },
        ),
    });
  };

  const deployConfirmed = async () => {
    const source = draft.text;
    if (source !== draft.saved) await save.mutateAsync(source);
    const answer = await deploy.mutateAsync(source);
    if (answer.status === "ok") toast.show({ tone: "success", title: "Deployed", description: `Version ${answer.version_id} is live.` });
  };

  return (
    <section aria-labelledby="function-source-title" className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="function-source-title" className="text-sm font-semibold text-slate-900">
            Source
          </h2>
          <DraftState fn={fn} saved={saved} draft={draft} />
          {fn.source === null && canWrite && <StarterPicker draft={draft} />}
        </div>
        {canWrite && (
          <div className="flex items-center gap-2">
            <Button
              onClick={saveDraft}
              loading={save.isPending}
              disabled={Boolean(saveBlocker)}
              title={saveBlocker ?? "Save as a draft: nothing runs it until you deploy (Ctrl+S)"}
              aria-keyshortcuts="Control+S Meta+S"
              data-testid="function-save"
            >
              Save draft
            </Button>
            <Button
              variant="primary"
              onClick={() => !blocker && setConfirming(true)}
              disabled={Boolean(blocker) || deploy.isPending}
              loading={deploy.isPending}
              title={blocker ?? "Review the changes, then deploy them to live traffic"}
              data-testid="function-deploy"
            >
              Deploy…
            </Button>
          </div>
        )}
      </div>
      <FunctionCodeArea
        functionId={fn.id}
        value={draft.text}
        onChange={draft.setText}
        onSave={saveDraft}
        markers={markers}
        secretNames={secretNames}
        readOnly={!canWrite}
        label="Function source"
      />
      {canWrite && (saveBlocker ?? blocker) && <p className="text-xs text-slate-600">{saveBlocker ?? blocker}</p>}
      <FormError>{save.error ? `The draft was not saved: ${save.error.message} Your code is still in the editor; try Save again.` : null}</FormError>
      <DeployOutcome
        deploy={deploy.data}
        scriptName={deploy.data?.status === "ok" && fn.active_version_id === deploy.data.version_id ? fn.script_name : null}
        hasLiveVersion={Boolean(fn.active_version_id)}
        error={deploy.error}
      />
      <DeployDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        fn={fn}
        source={draft.text}
        liveMovedSinceDraft={draft.saved !== null && saved.base_version_id !== fn.active_version_id}
        onDeploy={deployConfirmed}
      />
    </section>
  );
}
