"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Button, ConfirmDialog, RefreshIcon, TrashIcon, useToast } from "@/components/ui";
import { useDeleteFlow, useDeprecateFlow, useRefreshFlow, type Flow, type usePublishFlow } from "@/lib/client/flows";
import { DetailsDialog } from "./details-dialog";
import { canDelete, canDeprecate, publishBlocker, saveBlocker, sendBlocker, type GateInput } from "./gates";
import { SendDialog } from "./send-dialog";

export interface EditorActionsProps {
  projectId: string;
  flow: Flow;
  gate: GateInput;
  saving: boolean;
  onSave: () => void;
  /** The publish mutation lives here; its refusal is shown by the page (PublishStatus). */
  publish: ReturnType<typeof usePublishFlow>;
}

type Dialog = "send" | "details" | "deprecate" | "delete" | null;

/** Save, Publish, Send to a sandbox tester, details, and the rarer Refresh / Deprecate / Delete; a disabled button says why below the row. */
export function EditorActions({ projectId, flow, gate, saving, onSave, publish }: EditorActionsProps) {
  const router = useRouter();
  const toast = useToast();
  const reasonsId = useId();
  const [dialog, setDialog] = useState<Dialog>(null);
  const deprecate = useDeprecateFlow(projectId, flow.id);
  const remove = useDeleteFlow(projectId, flow.id);
  const refresh = useRefreshFlow(projectId, flow.id);

  const saveWhy = saveBlocker(gate);
  const publishWhy = publishBlocker(gate);
  const sendWhy = sendBlocker(gate);
  const reasons = [publishWhy && flow.meta_status !== "PUBLISHING" && `Publish: ${publishWhy}`, sendWhy && `Send: ${sendWhy}`].filter(Boolean);

  return (
    <div className="flex flex-col items-end gap-1.5">
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          onClick={onSave}
          loading={saving}
          disabled={Boolean(saveWhy) && !saving}
          title={saveWhy ?? "Save (Ctrl+S)"}
          aria-keyshortcuts="Control+S Meta+S"
        >
          Save
        </Button>
        <Button
          variant="primary"
          loading={publish.isPending || flow.meta_status === "PUBLISHING"}
          disabled={Boolean(publishWhy)}
          aria-describedby={reasons.length ? reasonsId : undefined}
          onClick={() =>
            publish.mutate(undefined, {
              onSuccess: () => toast.show({ tone: "info", title: "Publishing…", description: "The status updates here on its own." }),
            })
          }
        >
          Publish
        </Button>
        <Button disabled={Boolean(sendWhy)} aria-describedby={reasons.length ? reasonsId : undefined} onClick={() => setDialog("send")}>
          Send to a sandbox tester
        </Button>
        {gate.canWrite && flow.status !== "DEPRECATED" && <Button onClick={() => setDialog("details")}>Details</Button>}
        {gate.canWrite && flow.meta_flow_id && flow.meta_status !== "PUBLISHING" && (
          <Button variant="ghost" icon={<RefreshIcon />} loading={refresh.isPending} onClick={() => refresh.mutate()}>
            Refresh status
          </Button>
        )}
        {canDeprecate(gate) && (
          <Button variant="ghost" onClick={() => setDialog("deprecate")}>
            Deprecate
          </Button>
        )}
        {canDelete(gate) && (
          <Button variant="ghost" icon={<TrashIcon />} className="text-red-700" onClick={() => setDialog("delete")}>
            Delete
          </Button>
        )}
      </div>
      {reasons.length > 0 && (
        <p id={reasonsId} className="text-right text-xs text-slate-500">
          {reasons.join(" · ")}
        </p>
      )}
      {dialog === "send" && <SendDialog projectId={projectId} flow={flow} onClose={() => setDialog(null)} />}
      {dialog === "details" && <DetailsDialog projectId={projectId} flow={flow} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={dialog === "deprecate"}
        onClose={() => setDialog(null)}
        title={`Deprecate ${flow.name}?`}
        description="Customers can no longer be sent it, and its config key and locale are free for a successor. This can't be undone."
        confirmLabel="Deprecate flow"
        onConfirm={() => deprecate.mutateAsync()}
      />
      <ConfirmDialog
        open={dialog === "delete"}
        onClose={() => setDialog(null)}
        title={`Delete ${flow.name}?`}
        description="The flow and its draft are removed. It was never published, so no customer has it."
        confirmLabel="Delete flow"
        onConfirm={async () => {
          await remove.mutateAsync();
          toast.show({ tone: "success", title: `${flow.name} deleted` });
          router.push(projectPath(projectId, "flows"));
        }}
      />
    </div>
  );
}
