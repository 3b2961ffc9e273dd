"use client";

import { useEffect, useRef } from "react";

export interface InboxShortcuts {
  next: () => void;
  previous: () => void;
  assignToMe: () => void;
}

/** Where typing happens: there j, k and a are letters, not shortcuts. */
function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["checkbox", "radio", "button", "submit", "reset"].includes(type);
}

/**
 * The inbox's keys: j / Alt+↓ next conversation, k / Alt+↑ previous, a assign to me. Letters only
 * outside text fields and without Ctrl/Cmd (browser shortcuts stay theirs); Alt+arrows work anywhere,
 * and not while a dialog is open.
 */
export function useInboxShortcuts(shortcuts: InboxShortcuts) {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.isComposing) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
        event.preventDefault();
        if (event.key === "ArrowDown") latest.current.next();
        else latest.current.previous();
        return;
      }
      if (event.altKey || event.shiftKey || isTextField(event.target)) return;
      const action =
        event.key === "j" ? latest.current.next : event.key === "k" ? latest.current.previous : event.key === "a" ? latest.current.assignToMe : null;
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
