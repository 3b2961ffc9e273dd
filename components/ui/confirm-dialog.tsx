"use client";

import { FormError } from "./form-error";
import { useState, type ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { Field } from "./field";
import { Input } from "./input";

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  /** May return a promise: the dialog shows it as loading, closes when it resolves and shows the error if it rejects. */
  onConfirm: () => void | Promise<unknown>;
  title: ReactNode;
  /** What will happen, in plain words (consequences, not "Are you sure?"). */
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: "danger" | "primary";
  /** Loading driven from outside (e.g. a mutation's isPending) instead of the returned promise. */
  loading?: boolean;
  /** For irreversible things: the operator must type this exact text before the button enables. */
  confirmText?: string;
}

/**
 * Asks before doing something consequential. Focus starts on Cancel, so Enter on a stray keypress
 * never deletes anything.
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  description,
  children,
  confirmLabel = "Confirm",
  cancelLabel = "Cancel",
  tone = "danger",
  loading,
  confirmText,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const busy = pending || Boolean(loading);

  const close = () => {
    setError(null);
    setTyped("");
    onClose();
  };

  const confirm = async () => {
    setError(null);
    const result = onConfirm();
    if (!(result instanceof Promise)) return;
    setPending(true);
    try {
      await result;
      setPending(false);
      close();
    } catch (cause) {
      setPending(false);
      setError(cause instanceof Error ? cause.message : "Something went wrong. Try again.");
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      description={description}
      size="sm"
      dismissible={!busy}
      footer={
        <>
          <Button onClick={close} disabled={busy} data-autofocus>
            {cancelLabel}
          </Button>
          <Button variant={tone} onClick={confirm} loading={busy} disabled={confirmText !== undefined && typed !== confirmText}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {confirmText !== undefined && (
        <Field
          className={children ? "mt-4" : undefined}
          label={
            <>
              Type <span className="font-mono text-slate-900">{confirmText}</span> to confirm
            </>
          }
        >
          <Input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} mono />
        </Field>
      )}
      <FormError className="mt-4">{error}</FormError>
    </Dialog>
  );
}
