"use client";

import { useEffect, useId, useRef, type FormEvent, type MouseEvent, type ReactNode, type RefObject } from "react";
import { cn } from "./cn";
import { CloseIcon } from "./icons";

/**
 * Drives a native <dialog> as a controlled modal: showModal() makes the rest of the page inert (the
 * browser's own focus trap) and Escape fires `cancel`, which we turn into onClose so the parent stays
 * the source of truth. Focus goes to [data-autofocus] (React's autoFocus fires before the dialog is
 * shown, so it cannot be used), else the first field, else the panel; it returns to the opener on close.
 */
function useModalDialog(ref: RefObject<HTMLDialogElement | null>, open: boolean, onClose: () => void, dismissible: boolean) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const dismissibleRef = useRef(dismissible);
  dismissibleRef.current = dismissible;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const target =
      dialog.querySelector<HTMLElement>("[data-autofocus]") ??
      dialog.querySelector<HTMLElement>(
        '[data-dialog-body] :is(input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled]))',
      ) ??
      dialog.querySelector<HTMLElement>("[data-dialog-panel]");
    target?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // Only steal focus back when it is still inside the (now closed) dialog or lost to <body>.
      if (opener?.isConnected && (dialog.contains(document.activeElement) || document.activeElement === document.body)) opener.focus();
    };
  }, [ref, open]);

  const openRef = useRef(open);
  openRef.current = open;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (dismissibleRef.current) onCloseRef.current();
    };
    // Chrome closes a dialog anyway on a repeated Escape whose cancel was prevented: keep the parent's
    // state in step when the browser closes it behind our back.
    const onNativeClose = () => {
      if (openRef.current) onCloseRef.current();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onNativeClose);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onNativeClose);
    };
  }, [ref]);

  // A click that starts and ends on the <dialog> itself (not the panel inside) is a backdrop click.
  const pressedOnBackdrop = useRef(false);
  return {
    onMouseDown: (event: MouseEvent<HTMLDialogElement>) => {
      pressedOnBackdrop.current = event.target === event.currentTarget;
    },
    onMouseUp: (event: MouseEvent<HTMLDialogElement>) => {
      if (pressedOnBackdrop.current && event.target === event.currentTarget && dismissibleRef.current) onCloseRef.current();
      pressedOnBackdrop.current = false;
    },
  };
}

export interface DialogProps {
  open: boolean;
  /** Called on Escape, backdrop click and the × button. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons row at the bottom (right-aligned; stacks on phones). */
  footer?: ReactNode;
  size?: "sm" | "md" | "lg" | "xl";
  /** false while something is saving: Escape, backdrop and × do nothing. */
  dismissible?: boolean;
  /** Makes the whole panel a <form> so Enter submits and the footer's type=submit button works. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children?: ReactNode;
}

const widths = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-2xl", xl: "max-w-6xl" } as const;

/**
 * A modal dialog (native <dialog>, aria-modal, labelled by its title). Children mount only while open,
 * so forms inside start fresh each time.
 */
export function Dialog({ open, onClose, title, description, footer, size = "md", dismissible = true, onSubmit, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const handlers = useModalDialog(ref, open, onClose, dismissible);
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = description ? `${id}-description` : undefined;

  const content = open && (
    <>
      <div className="flex items-start justify-between gap-4 px-5 pt-5">
        <div className="min-w-0">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-1 text-sm text-slate-500">
              {description}
            </p>
          )}
        </div>
        <button
          type="button"
          onClick={onClose}
          disabled={!dismissible}
          aria-label="Close"
          className="-mt-1 -mr-2 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
        >
          <CloseIcon />
        </button>
      </div>
      <div data-dialog-body className="min-h-0 flex-1 overflow-y-auto px-5 pt-4 pb-5 text-sm text-slate-700">
        {children}
      </div>
      {footer && (
        <div className="flex flex-col-reverse gap-2 rounded-b-xl border-t border-slate-200 bg-slate-50/70 px-5 py-3 sm:flex-row sm:justify-end">{footer}</div>
      )}
    </>
  );

  const panelClasses = "flex max-h-[calc(100dvh-2rem)] flex-col outline-none";
  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className={cn(
        "m-auto w-[calc(100%-2rem)] rounded-xl bg-white p-0 text-slate-900 shadow-2xl ring-1 ring-slate-900/10",
        "backdrop:bg-slate-900/40 backdrop:backdrop-blur-[2px]",
        widths[size],
      )}
      {...handlers}
    >
      {onSubmit ? (
        <form data-dialog-panel tabIndex={-1} className={panelClasses} onSubmit={onSubmit} noValidate>
          {content}
        </form>
      ) : (
        <div data-dialog-panel tabIndex={-1} className={panelClasses}>
          {content}
        </div>
      )}
    </dialog>
  );
}

export interface SheetProps {
  open: boolean;
  onClose: () => void;
  /** Accessible name of the panel (e.g. "Navigation"). */
  label: string;
  side?: "left" | "right";
  className?: string;
  children?: ReactNode;
}

/** A modal panel that slides from a screen edge (the phone navigation). Same focus and Escape rules as Dialog. */
export function Sheet({ open, onClose, label, side = "left", className, children }: SheetProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const handlers = useModalDialog(ref, open, onClose, true);
  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-label={label}
      className={cn(
        "fixed inset-y-0 m-0 h-dvh max-h-none w-[min(20rem,calc(100%-3rem))] max-w-none bg-white p-0 shadow-2xl",
        "backdrop:bg-slate-900/40",
        side === "left" ? "left-0 right-auto" : "right-0 left-auto",
        className,
      )}
      {...handlers}
    >
      {open && (
        <div data-dialog-panel tabIndex={-1} className="flex h-full flex-col outline-none">
          {children}
        </div>
      )}
    </dialog>
  );
}
