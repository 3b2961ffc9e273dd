/**
 * Keyboard users can always leave a code editor (WCAG 2.1.2, no keyboard trap). In Monaco, Tab
 * indents; pressing Escape and then Tab (or Shift+Tab) moves focus to the control after (or before)
 * the editor instead. Monaco's own tab-focus mode (Ctrl+M, Ctrl+Shift+M on a Mac) stays available for
 * those who prefer Tab to always move focus. Listening in the capture phase on the editor's frame
 * sees the keys before Monaco does, so the Tab that leaves never reaches it.
 */

const TABBABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]",
  "[contenteditable='true']",
  "summary",
].join(",");

const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock"]);

function isTabbable(element: HTMLElement): boolean {
  if (element.tabIndex < 0 || element.closest("[inert]")) return false;
  // Hidden elements (display: none, an ancestor hidden, a closed <details>) have no client rects.
  return element.getClientRects().length > 0;
}

/**
 * Focuses the nearest tabbable element after (or before) `frame` in document order, inside the
 * nearest modal <dialog> when the editor is in one (the rest of the page is inert then).
 */
function focusBeside(frame: HTMLElement, direction: "after" | "before"): boolean {
  const root: ParentNode = frame.closest("dialog[open]") ?? document;
  const candidates = [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((element) => !frame.contains(element) && isTabbable(element));
  const following = (element: HTMLElement) => Boolean(frame.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING);
  const target = direction === "after" ? candidates.find(following) : candidates.filter((element) => !following(element)).at(-1);
  if (!target) return false;
  target.focus();
  return true;
}

/**
 * Arms on Escape; the next Tab or Shift+Tab leaves the editor, any other key (but a modifier) disarms.
 * In a modal dialog, Escape in an editable editor belongs to the editor (a dialog with a half-written
 * form must not close on the first key of "Esc then Tab"): its `cancel` is stopped before the dialog's
 * own handler sees it. Returns the cleanup.
 */
export function attachKeyboardExit(frame: HTMLElement, options: { editable: boolean }): () => void {
  let armed = false;
  let escapeInEditor = false;
  const dialog = frame.closest("dialog");
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      armed = true;
      // The dialog's cancel follows this keydown in the same task; forget it afterwards either way.
      escapeInEditor = options.editable;
      setTimeout(() => (escapeInEditor = false), 0);
      return;
    }
    if (MODIFIERS.has(event.key)) return;
    const leave = armed && event.key === "Tab" && !event.ctrlKey && !event.altKey && !event.metaKey;
    armed = false;
    if (!leave) return;
    if (focusBeside(frame, event.shiftKey ? "before" : "after")) {
      event.preventDefault();
      event.stopPropagation();
    }
  };
  const onCancel = (event: Event) => {
    if (!escapeInEditor) return;
    escapeInEditor = false;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  // A click (or anything else) inside the editor also disarms, so a stale Escape never steals a Tab.
  const disarm = () => {
    armed = false;
  };
  frame.addEventListener("keydown", onKeyDown, true);
  frame.addEventListener("pointerdown", disarm, true);
  dialog?.addEventListener("cancel", onCancel, true);
  return () => {
    frame.removeEventListener("keydown", onKeyDown, true);
    frame.removeEventListener("pointerdown", disarm, true);
    dialog?.removeEventListener("cancel", onCancel, true);
  };
}
