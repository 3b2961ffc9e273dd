"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { projectPath } from "@/components/shell/nav-links";
import { Dialog, Field, FormDialogActions, FormError, InfoIcon, Input, Select, Spinner, Textarea, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useFlowChannels, usePublishFlowOnChannel, useSandboxTesters, useSendFlow, type Flow } from "@/lib/client/flows";
import { channelLabel, channelName, sendFromOptions, sendRefusalText, type SendFrom } from "../model/flow-channels";

const testerLabel = (tester: { name: string | null; phone: string | null; id: string }) => [tester.name, tester.phone].filter(Boolean).join(" · ") || tester.id;

/**
 * "Send to a sandbox tester": POST /flows/send to one of the project's sandbox conversations, from a
 * channel that can send the published version. Testers join on the shared sandbox; once the project
 * owns a number the flow is published there instead, so the dialog says so and publishes the version
 * on the sandbox first (POST /flows/{id}/channels) when the operator sends from it. Mount it only while
 * open: each opening gets its own Idempotency-Key, kept across retries so a lost answer never sends
 * the flow twice.
 */
export function SendDialog({ projectId, flow, onClose }: { projectId: string; flow: Flow; onClose: () => void }) {
  const testers = useSandboxTesters(projectId);
  const channels = useFlowChannels(projectId, flow);
  const publishThere = usePublishFlowOnChannel(projectId, flow.id);
  const send = useSendFlow(projectId);
  const toast = useToast();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [conversationId, setConversationId] = useState("");
  const [fromId, setFromId] = useState("");
  const [body, setBody] = useState("Tap the button below to open the form.");
  const [cta, setCta] = useState("Open");
  const [missing, setMissing] = useState(false);

  const options = channels.data ? sendFromOptions(channels.data) : [];
  const from = options.find((option) => option.channel.channel_id === fromId) ?? options[0];
  const chosen = conversationId || testers.data?.[0]?.id || "";
  const tester = testers.data?.find((t) => t.id === chosen);
  const pending = publishThere.isPending || send.isPending;
  const error = publishThere.error ?? send.error;
  const apiError = isApiError(send.error) ? send.error : null;
  const bodyError = apiError?.fieldError("body_text");
  const ctaError = apiError?.fieldError("flow_cta");
  const general =
    error && !bodyError && !ctaError && from
      ? sendRefusalText(isApiError(error) ? error : { message: error.message }, from.channel, tester ? testerLabel(tester) : "The tester")
      : null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMissing(!chosen);
    if (!chosen || !from || pending) return;
    try {
      if (from.needsPublish) await publishThere.mutateAsync(from.channel.channel_id);
    } catch {
      return; // Shown under the form (publishThere.error).
    }
    const request = {
      channel_id: from.channel.channel_id,
      flow_id: flow.id,
      conversation_id: chosen,
      body_text: body.trim(),
      flow_cta: cta.trim() || undefined,
    };
    send.mutate(
      { request, idempotencyKey },
      {
        onSuccess: (dispatch) => {
          toast.show({
            tone: "success",
            title: `Sent to ${tester ? testerLabel(tester) : "the tester"} from ${channelName(from.channel)}`,
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
      description={`Sends "${flow.name}" (version ${flow.published_version ?? "—"}) as an interactive message with a button that opens it.`}
      dismissible={!pending}
      onSubmit={submit}
      footer={<FormDialogActions onCancel={onClose} pending={pending} submitLabel={from?.needsPublish ? "Publish there and send" : "Send flow"} />}
    >
      <div className="space-y-5">
        {testers.isPending ? (
          <Spinner label="Loading sandbox testers" />
        ) : testers.data?.length ? (
          <Field label="Tester" error={missing ? "Pick a tester." : undefined} hint="The project's conversations on the shared sandbox.">
            <Select value={chosen} onChange={(e) => setConversationId(e.target.value)} data-autofocus>
              {testers.data.map((t) => (
                <option key={t.id} value={t.id}>
                  {testerLabel(t)}
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
        {channels.isPending ? (
          <Spinner label="Loading where the flow is published" />
        ) : (
          from && (
            <Field label="Send from" hint={fromHint(from)}>
              <Select value={from.channel.channel_id} onChange={(e) => setFromId(e.target.value)}>
                {options.map((option) => (
                  <option key={option.channel.channel_id} value={option.channel.channel_id}>
                    {channelLabel(option.channel)}
                    {option.needsPublish ? " (publish there first)" : ""}
                  </option>
                ))}
              </Select>
            </Field>
          )
        )}
        {from?.needsPublish && channels.data && (
          <PublishFirstNote flow={flow} from={from} published={channels.data.senders.filter((c) => c.primary).map(channelLabel)} />
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

function fromHint({ channel }: SendFrom): string {
  if (channel.is_sandbox) return "Where your sandbox testers joined.";
  return `${channelName(channel)} reaches a tester only within 24 hours of their last message to it.`;
}

/** What sending from a channel without the flow does first, before the operator presses the button. */
function PublishFirstNote({ flow, from, published }: { flow: Flow; from: SendFrom; published: string[] }) {
  const where = published.length ? `published on ${published.join(" and ")}` : "not published on any channel you can send from";
  return (
    <div role="note" className="flex gap-2.5 rounded-md bg-sky-50 px-3 py-2.5 text-sm text-sky-900 ring-1 ring-sky-600/20 ring-inset">
      <InfoIcon className="mt-0.5 shrink-0" aria-hidden />
      <p>
        &ldquo;{flow.name}&rdquo; is {where}, under another business account than {channelName(from.channel)}. Sending publishes version{" "}
        {flow.published_version} on {channelName(from.channel)} first, so your testers can open it; customers on your own number are not affected.
      </p>
    </div>
  );
}
