"use client";

// The text pieces every bubble body is made of, toned for the side of the conversation it sits on.
import { type ReactNode } from "react";
import { cn } from "@/components/ui/cn";

export type Tone = "inbound" | "outbound";

export function BodyText({ text, tone }: { text: string | null; tone: Tone }) {
  if (!text) return <Muted tone={tone}>(empty message)</Muted>;
  return <p className="text-sm leading-5 break-words whitespace-pre-wrap">{text}</p>;
}

export function Muted({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <p className={cn("text-[13px] italic", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{children}</p>;
}

export function Labelled({ tone, label, detail }: { tone: Tone; label: string; detail: ReactNode }) {
  return (
    <div className="text-sm leading-5">
      <p className={cn("text-xs font-semibold tracking-wide uppercase", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{label}</p>
      <p className="mt-0.5 break-words whitespace-pre-wrap">{detail}</p>
    </div>
  );
}

export function Caption({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <p className={cn("text-xs font-semibold tracking-wide uppercase", tone === "outbound" ? "text-indigo-100" : "text-slate-500")}>{children}</p>;
}
