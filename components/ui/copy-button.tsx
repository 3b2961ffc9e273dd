"use client";

import { useEffect, useRef, useState } from "react";
import { buttonClasses, buttonVariantClasses, type ButtonVariant } from "./button";
import { cn } from "./cn";
import { CheckIcon, CopyIcon } from "./icons";

/** Copies with the async Clipboard API, else the old execCommand route (http:// origins, old browsers). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission denied or no focus: try the fallback below.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  previous?.focus();
  return copied;
}

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name: "Copy <label>". */
  label?: string;
  /** "icon" (square, default) or "text" (icon + "Copy"). */
  display?: "icon" | "text";
  variant?: ButtonVariant;
  /** xs (24px, inline in text), sm (32px, default), md (36px, beside inputs). */
  size?: "xs" | "sm" | "md";
  className?: string;
  /** Takes the focus when its Dialog opens (the Dialog's [data-autofocus]): where the next keystroke should land. */
  dialogAutofocus?: boolean;
}

const iconSizes = { xs: "size-6 [&_svg]:size-3.5", sm: "size-8", md: "size-9" } as const;

/** Copies `value` and says so: the icon turns into a check and "Copied" is announced (aria-live). */
export function CopyButton({ value, label = "to clipboard", display = "icon", variant = "ghost", size = "sm", className, dialogAutofocus }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    const ok = await copyText(value);
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 2000);
  };

  const announcement = state === "copied" ? "Copied" : state === "failed" ? "Could not copy. Select the text and copy it manually." : "";
  const copied = state === "copied";
  return (
    <>
      <button
        type="button"
        onClick={copy}
        data-autofocus={dialogAutofocus || undefined}
        aria-label={display === "icon" ? `Copy ${label}` : undefined}
        title={display === "icon" ? (copied ? "Copied" : `Copy ${label}`) : undefined}
        className={cn(
          display === "icon" ? cn(buttonVariantClasses(variant), iconSizes[size]) : buttonClasses({ variant, size: size === "md" ? "md" : "sm" }),
          className,
        )}
      >
        {copied ? <CheckIcon className="text-emerald-600" /> : <CopyIcon />}
        {display === "text" && (copied ? "Copied" : "Copy")}
      </button>
      <span className="sr-only" aria-live="polite" role="status">
        {announcement}
      </span>
    </>
  );
}
