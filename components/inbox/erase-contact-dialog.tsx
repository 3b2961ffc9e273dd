"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button, Dialog, Field, FormError, Input, useToast } from "@/components/ui";
import type { Contact } from "@/lib/client/contacts";
import { useEraseContact } from "@/lib/client/contacts";
import { confirmsErasure } from "./erase-confirm";

export interface EraseContactDialogProps {
  projectId: string;
  contact: Contact;
  open: boolean;
  onClose: () => void;
  /** Where to go once erased: the conversation is gone, so the inbox list. */
  listHref: string;
  /** Told once erased, so the page can let go of the conversation's views before the navigation (they would ask for what is gone). */
  onErased?: () => void;
}

/**
 * DELETE /contacts/{id} behind a typed confirmation: erasure cannot be undone, so the operator types
 * the customer's number (or ERASE) before the button enables.
 */
export function EraseContactDialog({ projectId, contact, open, onClose, listHref, onErased }: EraseContactDialogProps) {
  const erase = useEraseContact(projectId);
  const toast = useToast();
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const ready = confirmsErasure(typed, contact.phone);

  const close = () => {
    setTyped("");
    setError(null);
    onClose();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || erase.isPending) return;
    setError(null);
    erase.mutate(contact.id, {
      onSuccess: () => {
        toast.show({ tone: "success", title: "Personal data erased", description: "The contact and their conversation are gone from this project." });
        close();
        router.push(listHref);
        onErased?.();
      },
      onError: (cause) => setError(cause.message),
    });
  };

  const who = contact.name ?? contact.phone ?? contact.user_id ?? contact.id;
  return (
    <Dialog
      open={open}
      onClose={close}
      size="sm"
      dismissible={!erase.isPending}
      title="Erase personal data?"
      description={`Everything this project holds about ${who} is erased: profile, opt-in, message texts and files, flow answers and stored webhook payloads. Messages stay only as empty records. This cannot be undone.`}
      onSubmit={submit}
      footer={
        <>
          <Button onClick={close} disabled={erase.isPending} data-autofocus>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={erase.isPending} disabled={!ready}>
            Erase personal data
          </Button>
        </>
      }
    >
      <Field
        label={
          <>
            Type {contact.phone ? <span className="font-mono text-slate-900">{contact.phone}</span> : null}
            {contact.phone ? " or " : ""}
            <span className="font-mono text-slate-900">ERASE</span> to confirm
          </>
        }
      >
        <Input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} mono />
      </Field>
      <FormError className="mt-4">{error}</FormError>
    </Dialog>
  );
}
