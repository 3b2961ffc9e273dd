"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { CloseIcon, PlusIcon } from "@/components/ui/icons";
import { Input, Textarea } from "@/components/ui/input";
import type { ComposedContent } from "@/lib/client/inbox";

const MAX_BUTTONS = 3;
const MAX_TITLE = 20;
const MAX_BODY = 1024;

/** A button's id comes back in the customer's reply: derived from its title so webhooks read well. */
function buttonIds(titles: string[]): string[] {
  const used = new Set<string>();
  return titles.map((title, index) => {
    const base =
      title
        .toLowerCase()
        .normalize("NFKD")
        .replace(/[^a-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, "")
        .slice(0, 40) || `option_${index + 1}`;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
    used.add(id);
    return id;
  });
}

/** Body text plus 1 to 3 reply buttons (titles up to 20 characters, unique). */
export function ReplyButtonsForm({ onSend, disabled }: { onSend: (content: ComposedContent) => void; disabled: boolean }) {
  const [body, setBody] = useState("");
  const [titles, setTitles] = useState<string[]>(["", ""]);
  const [touched, setTouched] = useState(false);

  const bodyError = !body.trim() ? "Write the message the buttons answer." : body.length > MAX_BODY ? `At most ${MAX_BODY} characters.` : null;
  const titleErrors = titles.map((title, index) => {
    const value = title.trim();
    if (!value) return "Give the button a title.";
    if (value.length > MAX_TITLE) return `At most ${MAX_TITLE} characters.`;
    if (titles.slice(0, index).some((other) => other.trim() === value)) return "Titles must be unique.";
    return null;
  });
  const valid = !bodyError && titleErrors.every((error) => error === null);

  const submit = () => {
    setTouched(true);
    if (disabled || !valid) return;
    const clean = titles.map((title) => title.trim());
    const ids = buttonIds(clean);
    onSend({ interactive: { type: "button", body: body.trim(), buttons: clean.map((title, index) => ({ id: ids[index]!, title })) } });
    setBody("");
    setTitles(["", ""]);
    setTouched(false);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="space-y-3"
    >
      <Field label="Message" error={touched ? bodyError : undefined}>
        <Textarea rows={2} value={body} onChange={(event) => setBody(event.target.value)} placeholder="Which time works for you?" disabled={disabled} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-[13px] font-medium text-slate-800">Buttons</legend>
        <p className="text-xs text-slate-500">1 to 3 buttons, up to {MAX_TITLE} characters each. The customer's tap comes back as a reply.</p>
        <div className="grid gap-2 sm:grid-cols-3">
          {titles.map((title, index) => (
            <div key={index} className="flex items-start gap-1">
              <Field label={`Button ${index + 1} title`} error={touched ? titleErrors[index] : undefined} className="min-w-0 flex-1 [&_label]:sr-only">
                <Input
                  value={title}
                  maxLength={MAX_TITLE + 10}
                  placeholder={`Button ${index + 1}`}
                  onChange={(event) => setTitles((current) => current.map((item, i) => (i === index ? event.target.value : item)))}
                  disabled={disabled}
                />
              </Field>
              {titles.length > 1 && (
                <Button
                  size="icon"
                  variant="ghost"
                  aria-label={`Remove button ${index + 1}`}
                  onClick={() => setTitles((current) => current.filter((_, i) => i !== index))}
                  disabled={disabled}
                >
                  <CloseIcon />
                </Button>
              )}
            </div>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button
          size="sm"
          variant="ghost"
          icon={<PlusIcon />}
          onClick={() => setTitles((current) => [...current, ""])}
          disabled={disabled || titles.length >= MAX_BUTTONS}
        >
          Add button
        </Button>
        <Button type="submit" variant="primary" disabled={disabled}>
          Send with buttons
        </Button>
      </div>
    </form>
  );
}
