"use client";

import { useState } from "react";
import { LazyDiffViewer } from "@/components/code-editor/diff-viewer-lazy";
import { Button, Dialog, FormError } from "@/components/ui";
import type { HostedFunction } from "@/lib/client/functions";

export interface DeployDialogProps {
  open: boolean;
  onClose: () => void;
  fn: HostedFunction;
  /** The code that will go live. */
  source: string;
  /** The saved draft was written on top of another version than the live one. */
  liveMovedSinceDraft: boolean;
  /** Saves the draft and deploys; the dialog closes when it settles, or shows why it could not. */
  onDeploy: () => Promise<unknown>;
}

/**
 * Deploy's confirmation: what goes to live traffic, as a diff against the code that runs now. Nothing
 * is deployed from the editor without it. Focus starts on Cancel, so a stray Enter changes nothing.
 */
export function DeployDialog({ open, onClose, fn, source, liveMovedSinceDraft, onDeploy }: DeployDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const live = fn.source ?? "";
  const close = () => {
    setError(null);
    onClose();
  };

  const deploy = async () => {
    setError(null);
    setPending(true);
    try {
      await onDeploy();
      setPending(false);
      close();
    } catch (cause) {
      setPending(false);
      setError(`${cause instanceof Error ? cause.message : "The deploy did not go through."} Nothing was deployed: check the message, then deploy again.`);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      size="xl"
      dismissible={!pending}
      title="Deploy to live traffic?"
      description={
        fn.active_version_id
          ? `This code replaces ${fn.script_name} for every run from then on: tests, invokes, automations, agent tools and MCP tools. ${fn.script_name} stays under Versions, to roll back to.`
          : "Nothing runs yet: this code becomes the function's first live version, run by tests, invokes, automations, agent tools and MCP tools."
      }
      footer={
        <>
          <Button onClick={close} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button variant="primary" onClick={deploy} loading={pending} data-testid="deploy-confirm">
            Deploy to live
          </Button>
        </>
      }
    >
      <div data-testid="deploy-dialog" className="space-y-3">
        {liveMovedSinceDraft && (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-600/20 ring-inset">
            The live code changed after this draft was saved (someone deployed or rolled back). The changes below are against what runs now.
          </p>
        )}
        <div className="grid grid-cols-2 gap-4 text-xs font-medium text-slate-600">
          <span>{fn.active_version_id ? `Live now: ${fn.script_name}` : "Live now: nothing deployed"}</span>
          <span>After deploying: your code</span>
        </div>
        <LazyDiffViewer
          original={live}
          modified={source}
          language="typescript"
          originalLabel={fn.active_version_id ? `Live code, ${fn.script_name}` : "Live code: none"}
          modifiedLabel="The code to deploy"
          height="26rem"
          testId="deploy-diff"
        />
        <FormError>{error}</FormError>
      </div>
    </Dialog>
  );
}
