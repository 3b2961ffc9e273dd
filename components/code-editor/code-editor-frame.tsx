"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { cn } from "@/components/ui";
import { attachKeyboardExit } from "./keyboard-exit";

export interface CodeEditorFrameProps {
  /** A read-only editor does not take Tab (its editor sets Monaco's tabFocusMode): the hint says so. */
  readOnly?: boolean;
  /** The frame's ring and corners (default: a rounded slate ring). */
  className?: string;
  testId?: string;
  children: ReactNode;
}

/** What the hint under every code editor says; exported for the tests that look for it. */
const KEYBOARD_HINT = {
  editable: "Tab indents here. To leave the editor, press Esc then Tab (Shift+Tab goes back), or Ctrl+M (Ctrl+Shift+M on a Mac) to make Tab move focus.",
  readOnly: "Read-only: Tab moves on to the next control.",
} as const;

/**
 * The frame every code editor of the dashboard sits in (components/code-editor/code-editor.tsx and the
 * function editor's code area): Escape then Tab leaves it (keyboard-exit.ts), and a line under it says
 * how, also read to screen readers as the description of the editor's text area.
 */
export function CodeEditorFrame({ readOnly = false, className, testId, children }: CodeEditorFrameProps) {
  const frame = useRef<HTMLDivElement>(null);
  const hintId = useId();

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const detach = attachKeyboardExit(element, { editable: !readOnly });
    // Monaco makes its own input element (a text area, or in Chromium a div with role textbox over the
    // EditContext API): describe whichever takes focus by the hint, beside any description it has.
    const describe = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || !target.matches("textarea, [role='textbox'], [contenteditable]")) return;
      const ids = (target.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
      if (!ids.includes(hintId)) target.setAttribute("aria-describedby", [...ids, hintId].join(" "));
    };
    element.addEventListener("focusin", describe);
    return () => {
      detach();
      element.removeEventListener("focusin", describe);
    };
  }, [hintId, readOnly]);

  return (
    <div ref={frame} data-testid={testId} data-code-editor-frame className={cn("overflow-hidden", className ?? "rounded-lg ring-1 ring-slate-200")}>
      {children}
      <p id={hintId} data-testid="code-editor-keyboard-hint" className="border-t border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600">
        <span className="font-medium text-slate-700">Keyboard:</span> {readOnly ? KEYBOARD_HINT.readOnly : KEYBOARD_HINT.editable}
      </p>
    </div>
  );
}
