"use client";

import { useEffect, useRef } from "react";
import { useLeaveGuard } from "@/components/ui/use-leave-guard";

/**
 * Ctrl/Cmd+S saves (anywhere on the page; the browser's "save page" is never what an editor means),
 * and leaving the page with unsaved changes asks first.
 */
export function useEditorGuards({ dirty, onSave }: { dirty: boolean; onSave: () => void }) {
  const onSaveRef = useRef(onSave);
  onSaveRef.current = onSave;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        onSaveRef.current();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  useLeaveGuard(dirty);
}
