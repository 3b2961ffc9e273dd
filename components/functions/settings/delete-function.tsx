"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, Card, CardBody, CardHeader, ConfirmDialog, TrashIcon, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useDeleteFunction, type HostedFunction } from "@/lib/client/functions";
import { describeReferences } from "../model/references";
import { functionsPath } from "../paths";

/** The 409 function_in_use refusal, with what still uses the function, as the dialog's error. */
function explain(error: unknown): unknown {
  if (!isApiError(error) || error.code !== "function_in_use") return error;
  const references = describeReferences(error.body?.references);
  return new Error(references.length ? `${error.message} Used by: ${references.join(", ")}.` : error.message);
}

/** Deleting removes the function with its versions, secrets, KV and run log; the name must be typed first. */
export function DeleteFunction({ projectId, fn }: { projectId: string; fn: HostedFunction }) {
  const router = useRouter();
  const toast = useToast();
  const remove = useDeleteFunction(projectId, fn.id);
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardHeader
        title="Delete this function"
        description="Its versions, secrets, key-value store and run history go with it. Automations and agent tools that use it must drop it first."
      />
      <CardBody>
        <Button variant="danger" icon={<TrashIcon />} onClick={() => setOpen(true)}>
          Delete function
        </Button>
      </CardBody>
      <ConfirmDialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Delete ${fn.name}?`}
        description="This can't be undone."
        confirmLabel="Delete function"
        confirmText={fn.slug}
        onConfirm={async () => {
          try {
            await remove.mutateAsync();
          } catch (error) {
            throw explain(error);
          }
          toast.show({ tone: "success", title: `${fn.name} deleted` });
          router.push(functionsPath(projectId));
        }}
      />
    </Card>
  );
}
