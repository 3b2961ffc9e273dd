"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Dialog, Field, FormDialogActions, FormError, Input, Select, Spinner, Textarea, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { SANDBOX_CHANNEL_ID, useSandboxTesters, useSendFlow, type Flow } from "@/lib/client/flows";

const testerLabel = (tester: { name: string | null; phone: string | null; id: string }) => [tester.name, tester.phone].filter(Boolean).join(" · ") || tester.id;

/**
 * "Send to a sandbox tester": POST /flows/send on the shared sandbox channel to one of the project's
 * sandbox conversations. Mount it only while open: each opening gets its own Idempotency-Key, kept
 * across retries so a lost answer never sends the flow twice.
 */
export function SendDialog({ projectId, flow, onClose }: { projectId: string; flow: Flow; onClose: () => void }) {
  const testers = useSandboxTesters(projectId);
  const send = useSendFlow(projectId);
  const toast = useToast();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [conversationId, setConversationId] = useState("");
  const [body, setBody] = useState("Tap the button below to open the form.");
  const [cta, setCta] = useState("Open");
  const [missing, setMissing] = useState(false);

  const chosen = conversationId || testers.data?.[0]?.id || "";
  const error = isApiError(send.error) ? send.error : null;
  const bodyError = error?.fieldError("body_text");
  const ctaError = error?.fieldError("flow_cta");
  const general = send.error && !bodyError && !ctaError ? send.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMissing(!chosen);
    if (!chosen) return;
    const request = { channel_id: SANDBOX_CHANNEL_ID, flow_id: flow.id, conversation_id: chosen, body_text: body.trim(), flow_cta: cta.trim() || undefined };
    send.mutate(
      { request, idempotencyKey },
      {
        onSuccess: (dispatch) => {
          const tester = testers.data?.find((t) => t.id === chosen);
          toast.show({
            tone: "success",
            title: `Sent to ${tester ? testerLabel(tester) : "the tester"}`,
            description: `Open the Sandbox phone to fill it in. Token ${dispatch.flow_token}.`,
          });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Send to a sandbox tester"
      description={`Sends "${flow.name}" (version ${flow.published_version ?? "—"}) on the shared sandbox as an interactive message with a button that opens it.`}
      dismissible={!send.isPending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={send.isPending} submitLabel="Send flow" />}
    >
      <div className="space-y-5">
        {testers.isPending ? (
          <Spinner label="Loading sandbox testers" />
        ) : testers.data?.length ? (
          <Field label="Tester" error={missing ? "Pick a tester." : undefined} hint="The project's conversations on the shared sandbox.">
            <Select value={chosen} onChange={(e) => setConversationId(e.target.value)} data-autofocus>
              {testers.data.map((tester) => (
                <option key={tester.id} value={tester.id}>
                  {testerLabel(tester)}
                </option>
              ))}
            </Select>
          </Field>
        ) : (
          <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset">
            No sandbox testers yet.{" "}
            <Link href={projectPath(projectId, "sandbox")} className="font-medium underline">
              Open the Sandbox phone
            </Link>
            , join with a number, then send from here.
          </p>
        )}
        <Field label="Message" error={bodyError} hint="Shown above the button (up to 1024 characters).">
          <Textarea rows={3} maxLength={1024} value={body} onChange={(e) => setBody(e.target.value)} />
        </Field>
        <Field label="Button text" optional error={ctaError} hint="Up to 20 characters; Open if empty.">
          <Input maxLength={20} value={cta} onChange={(e) => setCta(e.target.value)} />
        </Field>
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
