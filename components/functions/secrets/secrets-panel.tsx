"use client";

import { useRef, useState } from "react";
import { Button, ConfirmDialog, EmptyState, ErrorState, KeyIcon, SkeletonGroup, SkeletonRows, Time, TrashIcon } from "@/components/ui";
import { useFunctionSecrets, useUpdateFunctionSecrets } from "@/lib/client/functions";
import { SecretForm } from "./secret-form";

/**
 * The function's secrets (sealed at rest, visible to its code as `env.NAME`): names and when each was
 * set, never a value. Values can be replaced or deleted, not read.
 */
export function SecretsPanel({ projectId, functionId, canWrite }: { projectId: string; functionId: string; canWrite: boolean }) {
  const secrets = useFunctionSecrets(projectId, functionId);
  const update = useUpdateFunctionSecrets(projectId, functionId);
  const [name, setName] = useState("");
  const [deleting, setDeleting] = useState<string | null>(null);
  const valueRef = useRef<HTMLInputElement>(null);

  if (secrets.isPending) {
    return (
      <SkeletonGroup label="Loading secrets">
        <SkeletonRows rows={2} columns={3} />
      </SkeletonGroup>
    );
  }
  if (secrets.isError)
    return <ErrorState error={secrets.error} title="Couldn't load the secrets" onRetry={() => void secrets.refetch()} retrying={secrets.isFetching} />;
  const names = secrets.data.data.map((secret) => secret.name);

  return (
    <div className="space-y-5">
      {secrets.data.data.length === 0 ? (
        <EmptyState
          compact
          icon={<KeyIcon />}
          title="No secrets yet"
          description="API keys and tokens your code needs: set them here, read them as env.NAME."
        />
      ) : (
        <ul aria-label="Secrets" className="divide-y divide-slate-100 rounded-lg bg-white ring-1 ring-slate-200">
          {secrets.data.data.map((secret) => (
            <li key={secret.name} data-testid="secret-row" data-secret-name={secret.name} className="flex flex-wrap items-center gap-3 px-4 py-2.5">
              <code className="min-w-0 flex-1 font-mono text-[13px] text-slate-900">{secret.name}</code>
              <span className="text-[13px] text-slate-500">
                Set <Time value={secret.updated_at} />
              </span>
              {canWrite && (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Replace the value of ${secret.name}`}
                    onClick={() => {
                      setName(secret.name);
                      valueRef.current?.focus();
                    }}
                  >
                    Replace
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    icon={<TrashIcon />}
                    className="text-red-700"
                    aria-label={`Delete ${secret.name}`}
                    onClick={() => setDeleting(secret.name)}
                  >
                    Delete
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {canWrite && <SecretForm projectId={projectId} functionId={functionId} existing={names} name={name} onNameChange={setName} valueRef={valueRef} />}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={deleting ? `Delete ${deleting}?` : "Delete the secret?"}
        description={deleting ? `From the next run, env.${deleting} is undefined. The value can't be recovered.` : undefined}
        confirmLabel="Delete secret"
        onConfirm={() => (deleting ? update.mutateAsync({ [deleting]: null }) : undefined)}
      />
    </div>
  );
}
