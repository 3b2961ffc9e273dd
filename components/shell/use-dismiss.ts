"use client";

import { useEffect, type RefObject } from "react";

/**
 * Closes a popover on Escape (handing focus back to its trigger) and on a press outside `container`.
 * Listens only while open.
 */
export function useDismiss(open: boolean, container: RefObject<HTMLElement | null>, trigger: RefObject<HTMLElement | null>, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (container.current && !container.current.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // Also keeps the Escape from closing a surrounding modal (the phone navigation sheet).
      event.preventDefault();
      event.stopPropagation();
      close();
      trigger.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, container, trigger, close]);
}
