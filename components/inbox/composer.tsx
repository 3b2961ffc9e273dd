"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import type { Platform } from "@/lib/client/channels";
import type { ComposedContent } from "@/lib/client/inbox";
import { MediaLinkForm } from "./media-link-form";
import { NoteForm } from "./note-form";
import { ReplyButtonsForm } from "./reply-buttons-form";
import { TemplateForm } from "./template-form";
import { TextForm } from "./text-form";

type Mode = "reply" | "note";
type Kind = "text" | "media" | "buttons" | "template";

const KINDS: { value: Kind; label: string }[] = [
  { value: "text", label: "Text" },
  { value: "media", label: "Media link" },
  { value: "buttons", label: "Reply buttons" },
  { value: "template", label: "Template" },
];

export interface ComposerProps {
  projectId: string;
  conversationId: string;
  channelId: string;
  platform: Platform | null;
  /** The 24-hour window: free-form kinds need it open; a template (PLATFORM_A) does not. */
  windowOpen: boolean;
  /** The thread has loaded (a reply before it would land out of order). */
  ready: boolean;
  onSend: (content: ComposedContent) => void;
  manageRepliesHref: string;
}

/**
 * Reply or Note. Reply: text (with saved replies), a media file by https link, reply buttons, or an
 * approved template, the only kind once the window is closed. Note: a private note for teammates.
 * Sending is optimistic: the thread shows the bubble at once; errors appear on that bubble.
 */
export function Composer({ projectId, conversationId, channelId, platform, windowOpen, ready, onSend, manageRepliesHref }: ComposerProps) {
  const [mode, setMode] = useState<Mode>("reply");
  const [chosenKind, setKind] = useState<Kind>("text");
  const templates = platform === "PLATFORM_A";
  const kinds = KINDS.filter((item) => (item.value === "template" ? templates : windowOpen));
  // Once the window closes only a template can go out: the composer switches to it by itself.
  const kind: Kind = kinds.some((item) => item.value === chosenKind) ? chosenKind : (kinds[0]?.value ?? "text");
  const disabled = !ready;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <div role="group" aria-label="Composer mode" className="flex rounded-md bg-slate-100 p-0.5">
          <ToggleButton pressed={mode === "reply"} onClick={() => setMode("reply")}>
            Reply
          </ToggleButton>
          <ToggleButton pressed={mode === "note"} onClick={() => setMode("note")} tone="note">
            Note
          </ToggleButton>
        </div>
        {mode === "reply" && kinds.length > 1 && (
          <div role="group" aria-label="Message kind" className="flex gap-1">
            {kinds.map((item) => (
              <ToggleButton key={item.value} pressed={kind === item.value} onClick={() => setKind(item.value)} plain>
                {item.label}
              </ToggleButton>
            ))}
          </div>
        )}
      </div>
      {mode === "note" ? (
        <NoteForm projectId={projectId} conversationId={conversationId} />
      ) : kinds.length === 0 ? (
        <p className="text-xs text-slate-600">Nothing can be sent on this channel until the customer writes again. You can still add a note for your team.</p>
      ) : kind === "text" ? (
        <TextForm
          projectId={projectId}
          conversationId={conversationId}
          disabled={disabled}
          onSend={(text) => onSend({ text })}
          manageHref={manageRepliesHref}
        />
      ) : kind === "media" ? (
        <MediaLinkForm onSend={onSend} disabled={disabled} />
      ) : kind === "buttons" ? (
        <ReplyButtonsForm onSend={onSend} disabled={disabled} />
      ) : (
        <TemplateForm projectId={projectId} channelId={channelId} disabled={disabled} onSend={onSend} />
      )}
    </div>
  );
}

function ToggleButton({
  pressed,
  onClick,
  tone,
  plain,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  tone?: "note";
  plain?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        "h-7 rounded-md px-2.5 text-xs font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600",
        pressed
          ? tone === "note"
            ? "bg-amber-200 text-amber-950"
            : plain
              ? "bg-slate-900 text-white"
              : "bg-white text-slate-900 shadow-xs"
          : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
      )}
    >
      {children}
    </button>
  );
}
