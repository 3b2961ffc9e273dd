"use client";

import { useState } from "react";
import { Button, ConfirmDialog, EmptyState, ErrorState, KeyIcon, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows, useToast } from "@/components/ui";
import { useKeys, useRevokeKey, type ApiKey, type CreatedApiKey } from "@/lib/client/keys";
import { can, useCurrentProject } from "@/lib/client/me";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeyCreatedDialog } from "./key-created-dialog";
import { KeysList, keyLabel } from "./keys-list";
import { McpPanel } from "./mcp-panel";

export function KeysPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canManage = can(role, "keys");
  const keys = useKeys(projectId);
  const revoke = useRevokeKey(projectId);
  const toast = useToast();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const createButton = canManage && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      Create key
    </Button>
  );

  const confirmRevoke = async () => {
    if (!revoking) return;
    const revoked = await revoke.mutateAsync(revoking.id);
    toast.show({ tone: "success", title: `${keyLabel(revoked)} revoked`, description: "Requests using it now fail with 401." });
  };

  return (
    <div>
      <PageHeader
        title="API keys"
        description="Secret keys let your servers call the svc API for this project; publishable keys start registrations from your website."
        actions={createButton}
      />

      {keys.isPending ? (
        <SkeletonGroup label="Loading API keys">
          <SkeletonRows rows={3} columns={5} />
        </SkeletonGroup>
      ) : keys.isError ? (
        <ErrorState error={keys.error} title="Couldn't load API keys" onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
      ) : keys.data.length === 0 ? (
        <EmptyState
          icon={<KeyIcon />}
          title="No API keys yet"
          description={
            canManage
              ? "Create a secret key for your server, then send your first message with it."
              : "An admin or developer of this organization can create one."
          }
          action={createButton}
        />
      ) : (
        <KeysList keys={keys.data} canManage={canManage} onRevoke={setRevoking} />
      )}

      {!canManage && keys.isSuccess && <p className="mt-3 text-xs text-slate-500">Your role can see keys but not create or revoke them.</p>}

      {keys.isSuccess && <McpPanel projectId={projectId} keys={keys.data} />}

      {creating && (
        <CreateKeyDialog
          projectId={projectId}
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
        />
      )}
      <KeyCreatedDialog created={created} onDone={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={confirmRevoke}
        title={revoking ? `Revoke ${keyLabel(revoking)} (${revoking.display})?` : "Revoke key?"}
        description="Requests using it will fail immediately. This can't be undone: create a new key if you need access again."
        confirmLabel="Revoke key"
      />
    </div>
  );
}
