"use client";

import { useEffect, useState, type ReactNode } from "react";
import { Button, Dialog, FormError, SkeletonGroup, SkeletonText } from "@/components/ui";
import { DiffList } from "@/components/config/diff-list";
import { IssueList } from "@/components/config/issue-list";
import { diffHeadline } from "@/components/config/model/diff";
import { useConfigDiff, useConfigExport } from "@/lib/client/config";
import { documentWithChange, type AutomationChange } from "./model/document-change";
import { relativePath } from "./model/issue-fields";
import { writeFailure, type WriteFailure } from "./model/write-errors";

export interface ReviewRequest {
  change: AutomationChange;
  title: string;
  /** What it will do to live traffic, in plain words. */
  effect: ReactNode;
  confirmLabel: string;
  /** Past participle for the refusal's words: "saved", "deleted", "moved", "switched on". */
  done: string;
  tone?: "primary" | "danger";
  run: () => Promise<unknown>;
}

/**
 * Before any write that changes what runs on live traffic: the change as the Config page's diff (the
 * exported document with this change, through POST /config/diff), what it does in words, then the
 * write. A refusal with issues goes back to the caller (the builder places them on the fields).
 */
export function ReviewDialog({
  projectId,
  request,
  onClose,
  onRefused,
}: {
  projectId: string;
  request: ReviewRequest | null;
  onClose: () => void;
  onRefused?: (failure: WriteFailure) => void;
}) {
  const exported = useConfigExport(projectId);
  const diff = useConfigDiff(projectId);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [asked, setAsked] = useState<ReviewRequest | null>(null);

  // Each opening compares against a fresh export: what is live now, not what the page loaded.
  const { refetch } = exported;
  const { mutate, reset } = diff;
  useEffect(() => {
    if (!request || request === asked) return;
    setAsked(request);
    setFailure(null);
    reset();
    void refetch().then((result) => {
      if (result.data) mutate(documentWithChange(result.data, request.change).document);
    });
  }, [request, asked, refetch, mutate, reset]);

  const changed = request && exported.data ? documentWithChange(exported.data, request.change) : null;
  const blocking = (diff.data?.issues ?? []).filter(
    (issue) => issue.severity === "error" && (issue.path === "" || (changed?.index != null && relativePath(issue.path, changed.index) !== null)),
  );
  const close = () => {
    if (pending) return;
    setAsked(null);
    onClose();
  };
  const confirm = async () => {
    if (!request) return;
    setPending(true);
    setFailure(null);
    try {
      await request.run();
      setPending(false);
      setAsked(null);
      onClose();
    } catch (error) {
      setPending(false);
      const refused = writeFailure(error, request.done);
      if (refused.issues && onRefused) {
        onRefused(refused);
        setAsked(null);
        onClose();
        return;
      }
      setFailure(refused.message);
    }
  };

  const loading = !diff.data && !diff.isError && !exported.isError;
  return (
    <Dialog
      open={request !== null}
      onClose={close}
      dismissible={!pending}
      size="lg"
      title={request?.title ?? ""}
      description={diff.data ? diffHeadline(diff.data.diff, "planned") : "Comparing with what is live…"}
      footer={
        <>
          <Button onClick={close} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button variant={request?.tone ?? "primary"} onClick={() => void confirm()} loading={pending} disabled={loading || blocking.length > 0}>
            {request?.confirmLabel ?? "Confirm"}
          </Button>
        </>
      }
    >
      {request && (
        <div className="space-y-4" data-review-dialog="true">
          <div className="rounded-md bg-slate-50 px-3 py-2.5 text-[13px] leading-5 text-slate-800 ring-1 ring-slate-200">{request.effect}</div>
          {loading ? (
            <SkeletonGroup label="Comparing with the live config">
              <SkeletonText lines={3} />
            </SkeletonGroup>
          ) : diff.isError || exported.isError ? (
            <FormError>
              {writeFailure(diff.error ?? exported.error, "compared").message} You can still {request.confirmLabel.toLowerCase()}: the server checks it again.
            </FormError>
          ) : diff.data ? (
            <>
              <IssueList issues={diff.data.issues.filter((issue) => (issue.severity === "error" ? blocking.includes(issue) : true))} />
              <div>
                <p className="mb-1.5 text-[13px] font-medium text-slate-800">The change, as the Config page shows it</p>
                <DiffList items={diff.data.diff} tense="planned" label="Changes to save" />
              </div>
              {blocking.length > 0 && <p className="text-[13px] text-red-700">Fix the errors above first: nothing is written while there are errors.</p>}
            </>
          ) : null}
          <FormError>{failure}</FormError>
        </div>
      )}
    </Dialog>
  );
}
