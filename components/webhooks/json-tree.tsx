"use client";

import type { ReactNode } from "react";
import { ChevronRightIcon } from "@/components/ui";

/**
 * Pretty-printed JSON whose objects and arrays fold (native <details>, so every fold is a keyboard
 * toggle with no script). Reads like the indented JSON it is: keys, punctuation and values keep their
 * places, only folded parts shrink to "{ … 4 keys }".
 */

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="text-slate-500">null</span>;
  if (typeof value === "string") return <span className="break-all text-emerald-700">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="text-sky-700">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="text-violet-700">{String(value)}</span>;
  return <span className="text-slate-500">{JSON.stringify(value) ?? "undefined"}</span>;
}

function Key({ name }: { name: string | number | undefined }) {
  if (name === undefined || typeof name === "number") return null;
  return (
    <>
      <span className="text-indigo-700">{JSON.stringify(name)}</span>
      <span className="text-slate-500">: </span>
    </>
  );
}

function Node({ name, value, comma, depth, defaultOpen }: { name?: string | number; value: unknown; comma: boolean; depth: number; defaultOpen: boolean }) {
  const trailing = comma ? <span className="text-slate-500">,</span> : null;
  const isArray = Array.isArray(value);
  if (value === null || typeof value !== "object") {
    return (
      <div>
        <Key name={name} />
        <Scalar value={value} />
        {trailing}
      </div>
    );
  }
  const entries: Array<[string | number, unknown]> = isArray ? value.map((v, i) => [i, v]) : Object.entries(value as Record<string, unknown>);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) {
    return (
      <div>
        <Key name={name} />
        <span className="text-slate-500">
          {open}
          {close}
        </span>
        {trailing}
      </div>
    );
  }
  const summary: ReactNode = `${entries.length} ${isArray ? (entries.length === 1 ? "item" : "items") : entries.length === 1 ? "key" : "keys"}`;
  return (
    <details open={defaultOpen || depth < 2} className="[&>summary::-webkit-details-marker]:hidden">
      <summary className="-ml-4 cursor-pointer list-none rounded-sm pl-4 marker:hidden hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600">
        <ChevronRightIcon
          size={12}
          className="-ml-4 mr-1 inline-block align-[-1px] text-slate-500 transition-transform motion-reduce:transition-none [details[open]>summary>&]:rotate-90"
        />
        <Key name={name} />
        <span className="text-slate-500">{open}</span>
        <span className="text-slate-500 [details[open]>summary>&]:hidden">
          {" "}
          … {summary} {close}
          {trailing}
        </span>
      </summary>
      <div className="pl-4">
        {entries.map(([key, child], index) => (
          <Node key={key} name={isArray ? undefined : key} value={child} comma={index < entries.length - 1} depth={depth + 1} defaultOpen={defaultOpen} />
        ))}
      </div>
      <div className="text-slate-500">
        {close}
        {trailing}
      </div>
    </details>
  );
}

export function JsonTree({ value, defaultOpen = true }: { value: unknown; defaultOpen?: boolean }) {
  return (
    <div className="pl-4 font-mono text-[13px] leading-5 text-slate-800">
      <Node value={value} comma={false} depth={0} defaultOpen={defaultOpen} />
    </div>
  );
}
