"use client";

import Link from "next/link";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

// The stretched ::after makes the whole row (a `relative` TR or li) clickable while this control stays
// its one tab stop; the focus ring is drawn on the row's outline, where the eye looks for it.
const STRETCHED =
  "text-slate-900 after:absolute after:inset-0 hover:text-indigo-700 focus-visible:outline-none focus-visible:after:rounded-sm focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-indigo-600";

function look(mono: boolean | undefined, className: string | undefined) {
  return cn(STRETCHED, "font-medium", mono && "font-mono text-[13px]", className);
}

type RowLinkProps = ComponentProps<typeof Link> & { mono?: boolean };

/** The link that opens a list row's page; put it in the row's first cell and give the row `relative`. */
export function RowLink({ mono, className, ...props }: RowLinkProps) {
  return <Link {...props} className={look(mono, className)} />;
}

/** RowLink for a row that opens in place (a sheet or dialog) instead of a page. */
export function RowButton({
  onClick,
  label,
  mono,
  className,
  children,
}: {
  onClick: () => void;
  label?: string;
  mono?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="button" onClick={onClick} aria-label={label} className={look(mono, className)}>
      {children}
    </button>
  );
}
