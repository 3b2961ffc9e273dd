import Link from "next/link";
import type { ComponentPropsWithRef, ReactNode } from "react";
import { cn } from "./cn";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "sm" | "md" | "lg" | "icon";

const base =
  "inline-flex shrink-0 items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 " +
  "disabled:cursor-not-allowed disabled:opacity-55 aria-disabled:cursor-not-allowed aria-disabled:opacity-55";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-indigo-600 text-white shadow-xs hover:bg-indigo-500 active:bg-indigo-700 disabled:hover:bg-indigo-600",
  secondary: "bg-white text-slate-800 shadow-xs ring-1 ring-inset ring-slate-300 hover:bg-slate-50 active:bg-slate-100 disabled:hover:bg-white",
  danger: "bg-red-600 text-white shadow-xs hover:bg-red-500 active:bg-red-700 focus-visible:outline-red-600 disabled:hover:bg-red-600",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-slate-900 active:bg-slate-200 disabled:hover:bg-transparent",
};

const sizes: Record<ButtonSize, string> = {
  sm: "h-8 px-2.5 text-[13px]",
  md: "h-9 px-3.5 text-sm",
  lg: "h-10 px-4 text-sm",
  // Square, for icon-only buttons: always give them an aria-label.
  icon: "size-9 text-sm",
};

/** Look without size: for square or custom-sized controls that still behave like buttons. */
export function buttonVariantClasses(variant: ButtonVariant = "secondary") {
  return cn(base, variants[variant]);
}

/** The classes of a Button, for things that must be another element (a Link, a label, a summary). */
export function buttonClasses({ variant = "secondary", size = "md", className }: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn(base, variants[variant], sizes[size], className);
}

export type ButtonProps = ComponentPropsWithRef<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and sets aria-busy; the label stays so the width does not jump. */
  loading?: boolean;
  /** An icon before the label (decorative: the label names the button). */
  icon?: ReactNode;
};

/** A real <button>. `type` defaults to "button" so a button in a form never submits by accident. */
export function Button({ variant = "secondary", size = "md", loading = false, icon, className, disabled, type = "button", children, ...props }: ButtonProps) {
  return (
    <button type={type} className={buttonClasses({ variant, size, className })} disabled={disabled || loading} aria-busy={loading || undefined} {...props}>
      {loading ? <Spinner size={size === "sm" ? 14 : 16} /> : icon}
      {children}
    </button>
  );
}

export type ButtonLinkProps = ComponentPropsWithRef<typeof Link> & { variant?: ButtonVariant; size?: ButtonSize; icon?: ReactNode };

/** A next/link that looks like a Button: use it when the action navigates. */
export function ButtonLink({ variant = "secondary", size = "md", icon, className, children, ...props }: ButtonLinkProps) {
  return (
    <Link className={buttonClasses({ variant, size, className })} {...props}>
      {icon}
      {children}
    </Link>
  );
}
