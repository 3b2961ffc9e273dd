"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { cn } from "./cn";
import { AlertIcon, CheckCircleIcon, CloseIcon, InfoIcon, XCircleIcon } from "./icons";

export type ToastTone = "neutral" | "success" | "warning" | "danger" | "info";

export interface ToastOptions {
  title: string;
  description?: string;
  tone?: ToastTone;
  /** Milliseconds before it goes away (paused while hovered or focused). Default 5 s, 8 s for danger. */
  duration?: number;
}

interface ToastItem extends Required<Pick<ToastOptions, "title" | "tone" | "duration">> {
  id: number;
  description?: string;
}

interface ToastApi {
  /** Shows a toast and returns its id. */
  show: (options: ToastOptions) => number;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** `const toast = useToast(); toast.show({ title: "Key revoked", tone: "success" })`. Needs <ToastProvider> (app/providers.tsx). */
export function useToast(): ToastApi {
  const context = useContext(ToastContext);
  if (!context) throw new Error("useToast must be used inside <ToastProvider>.");
  return context;
}

const icons: Record<ToastTone, ReactNode> = {
  neutral: <InfoIcon className="text-slate-500" size={18} />,
  info: <InfoIcon className="text-sky-600" size={18} />,
  success: <CheckCircleIcon className="text-emerald-600" size={18} />,
  warning: <AlertIcon className="text-amber-600" size={18} />,
  danger: <XCircleIcon className="text-red-600" size={18} />,
};

const MAX_VISIBLE = 4;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);
  const show = useCallback((options: ToastOptions) => {
    const id = nextId.current++;
    const tone = options.tone ?? "neutral";
    const item: ToastItem = {
      id,
      title: options.title,
      description: options.description,
      tone,
      duration: options.duration ?? (tone === "danger" ? 8000 : 5000),
    };
    setToasts((current) => [...current, item].slice(-MAX_VISIBLE));
    return id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* The live region exists from the first render: screen readers only announce changes inside regions they already know. */}
      <section
        aria-label="Notifications"
        aria-live="polite"
        aria-relevant="additions"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end sm:p-6"
      >
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.duration);
  const onDismissRef = useRef(onDismiss);
  onDismissRef.current = onDismiss;

  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onDismissRef.current(), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused]);

  return (
    <div
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cn(
        "pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg bg-white p-3.5 shadow-lg ring-1 ring-slate-900/10",
        "animate-[toast-in_160ms_ease-out] motion-reduce:animate-none",
      )}
    >
      <span className="mt-px shrink-0">{icons[toast.tone]}</span>
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium text-slate-900">{toast.title}</p>
        {toast.description && <p className="mt-0.5 text-slate-500">{toast.description}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notification"
        className="-m-1 shrink-0 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <CloseIcon size={14} />
      </button>
    </div>
  );
}
