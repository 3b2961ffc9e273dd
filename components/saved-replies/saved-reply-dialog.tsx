"use client";

import { useState, type FormEvent } from "react";
import { Dialog, Field, FormDialogActions, FormError, Input, Textarea, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import {
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_VARIABLES,
  SHORTCUT_PATTERN,
  unknownVariables,
  useCreateSavedReply,
  useUpdateSavedReply,
  type SavedReply,
} from "@/lib/client/saved-replies";

/** Create (reply null) or edit a saved reply. The server has the last word (e.g. 409 on a taken shortcut). */
export function SavedReplyDialog({ projectId, reply, onClose }: { projectId: string; reply: SavedReply | null; onClose: () => void }) {
  const create = useCreateSavedReply(projectId);
  const update = useUpdateSavedReply(projectId);
  const toast = useToast();
  const [shortcut, setShortcut] = useState(reply?.shortcut ?? "");
  const [title, setTitle] = useState(reply?.title ?? "");
  const [body, setBody] = useState(reply?.body ?? "");
  const [touched, setTouched] = useState(false);
  const mutation = reply ? update : create;
  const error = mutation.error;

  const shortcutError = !SHORTCUT_PATTERN.test(shortcut)
    ? "1 to 40 lowercase letters, digits, - or _, starting with a letter or digit (e.g. thanks)."
    : isApiError(error) && error.status === 409
      ? "Another saved reply has this shortcut: pick another."
      : (isApiError(error) && error.fieldError("shortcut")) || null;
  const titleError = !title.trim() ? "Give it a title your teammates recognise." : (isApiError(error) && error.fieldError("title")) || null;
  const unknown = unknownVariables(body);
  const bodyError = !body.trim()
    ? "Write the reply's text."
    : body.length > SAVED_REPLY_BODY_MAX
      ? `At most ${SAVED_REPLY_BODY_MAX} characters (${body.length} now).`
      : unknown.length > 0
        ? `Unknown variable ${unknown.map((name) => `{{${name}}}`).join(", ")}: use ${SAVED_REPLY_VARIABLES.join(", ")}.`
        : (isApiError(error) && error.fieldError("body")) || null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (!SHORTCUT_PATTERN.test(shortcut) || !title.trim() || !body.trim() || body.length > SAVED_REPLY_BODY_MAX || unknown.length > 0) return;
    const input = { shortcut, title: title.trim(), body };
    const done = (saved: SavedReply) => {
      toast.show({ tone: "success", title: reply ? `Saved /${saved.shortcut}` : `Created /${saved.shortcut}` });
      onClose();
    };
    if (reply) update.mutate({ id: reply.id, ...input }, { onSuccess: done });
    else create.mutate(input, { onSuccess: done });
  };

  const show = (message: string | null) => (touched || error ? message : null) ?? undefined;
  const general = error && !(isApiError(error) && (error.status === 409 || error.issues)) ? error.message : null;
  return (
    <Dialog
      open
      onClose={onClose}
      title={reply ? `Edit /${reply.shortcut}` : "New saved reply"}
      description="Type / and the shortcut in the inbox composer to insert it."
      onSubmit={submit}
      dismissible={!mutation.isPending}
      footer={<FormDialogActions onCancel={onClose} pending={mutation.isPending} submitLabel={reply ? "Save" : "Create saved reply"} />}
    >
      <div className="space-y-4">
        <Field label="Shortcut" error={show(shortcutError)} hint="Lowercase, e.g. thanks or opening-hours.">
          <Input mono value={shortcut} onChange={(event) => setShortcut(event.target.value.toLowerCase())} autoComplete="off" spellCheck={false} />
        </Field>
        <Field label="Title" error={show(titleError)}>
          <Input value={title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
        </Field>
        <Field label="Text" error={show(bodyError)} hint={`Variables: ${SAVED_REPLY_VARIABLES.join(", ")}. One with no value is left empty.`}>
          <Textarea rows={5} value={body} onChange={(event) => setBody(event.target.value)} />
        </Field>
        <FormError>{general}</FormError>
      </div>
    </Dialog>
  );
}
