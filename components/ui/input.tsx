"use client";

import type { ComponentPropsWithRef } from "react";
import { cn } from "./cn";
import { useFieldControl } from "./field";
import { ChevronDownIcon } from "./icons";

/** Shared look of text-like controls: a calm ring that turns indigo on focus and red when invalid. */
export const controlClasses =
  "block w-full rounded-md border-0 bg-white text-sm text-slate-900 shadow-xs ring-1 ring-inset ring-slate-300 " +
  "placeholder:text-slate-400 transition-shadow focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none " +
  "disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 read-only:bg-slate-50 " +
  "aria-[invalid=true]:ring-red-400 aria-[invalid=true]:focus:ring-red-600";

export type InputProps = ComponentPropsWithRef<"input"> & { mono?: boolean };

/** Text input. Inside a Field it gets its id and descriptions automatically. `mono` for ids, URLs, keys. */
export function Input({ className, mono, ...props }: InputProps) {
  const field = useFieldControl(props);
  return <input className={cn(controlClasses, "h-9 px-3", mono && "font-mono text-[13px]", className)} {...props} {...field} />;
}

export type TextareaProps = ComponentPropsWithRef<"textarea"> & { mono?: boolean };

export function Textarea({ className, mono, rows = 4, ...props }: TextareaProps) {
  const field = useFieldControl(props);
  return <textarea rows={rows} className={cn(controlClasses, "px-3 py-2 leading-6", mono && "font-mono text-[13px]", className)} {...props} {...field} />;
}

export type SelectProps = ComponentPropsWithRef<"select">;

/** A native <select> (best keyboard and mobile behaviour there is) with the same look as Input. */
export function Select({ className, children, ...props }: SelectProps) {
  const field = useFieldControl(props);
  return (
    <div className={cn("relative", className)}>
      <select className={cn(controlClasses, "h-9 appearance-none pr-9 pl-3")} {...props} {...field}>
        {children}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-slate-500" />
    </div>
  );
}
