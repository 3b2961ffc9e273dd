"use client";

import { Button, Input, PlusIcon, TrashIcon } from "@/components/ui";

export interface OriginsEditorProps {
  value: string[];
  onChange: (origins: string[]) => void;
  /** The server's messages for allowed_origins (one per refused origin). */
  errors?: string[];
}

/** One browser origin per row (scheme://host[:port]); the server checks each one. */
export function OriginsEditor({ value, onChange, errors }: OriginsEditorProps) {
  const rows = value.length ? value : [""];
  const set = (index: number, origin: string) => onChange(rows.map((row, i) => (i === index ? origin : row)));
  const remove = (index: number) => onChange(rows.filter((_, i) => i !== index));

  return (
    <fieldset className="space-y-2" aria-describedby="origins-hint">
      <legend className="text-[13px] font-medium text-slate-800">Allowed origins</legend>
      <p id="origins-hint" className="text-xs leading-5 text-slate-500">
        The websites allowed to use this key, as <code className="font-mono text-slate-700">scheme://host[:port]</code>, e.g.{" "}
        <code className="font-mono text-slate-700">https://app.example.com</code>. Publishable keys can only start registrations.
      </p>
      <ul className="space-y-2">
        {rows.map((origin, index) => (
          <li key={index} className="flex items-center gap-2">
            <Input
              aria-label={`Allowed origin ${index + 1}`}
              value={origin}
              onChange={(event) => set(index, event.target.value)}
              placeholder="https://app.example.com"
              mono
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors?.length ? true : undefined}
            />
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Remove origin ${index + 1}`}
              onClick={() => remove(index)}
              disabled={rows.length === 1 && origin === ""}
            >
              <TrashIcon />
            </Button>
          </li>
        ))}
      </ul>
      <Button size="sm" variant="ghost" icon={<PlusIcon />} onClick={() => onChange([...rows, ""])}>
        Add origin
      </Button>
      {errors?.map((message) => (
        <p key={message} role="alert" className="text-xs leading-5 font-medium text-red-600">
          {message}
        </p>
      ))}
    </fieldset>
  );
}
