"use client";

import { Badge, Field, Input, Select, Textarea, cn } from "@/components/ui";
import { addField, moveScreen, removeScreen, updateScreen, type ScreenPatch } from "../model/draft-ops";
import { newUid, type ScreenRef, type WorkingDraft, type WorkingScreen } from "../model/working-draft";
import { AddField } from "./add-field";
import { invalidProp, type BuilderProps } from "./builder-context";
import { FieldCard } from "./field-card";
import { FindingList } from "./finding-list";
import { MoveButtons } from "./move-buttons";

const END = "";

function refValue(ref: ScreenRef): string {
  if (!ref) return END;
  return ref.kind === "screen" ? ref.uid : `missing:${ref.id}`;
}

export interface ScreenCardProps extends BuilderProps {
  draft: WorkingDraft;
  screen: WorkingScreen;
  index: number;
  selected: boolean;
  onSelect: () => void;
  onAdded: (uid: string) => void;
}

/** One screen: its id, title, body, where its button leads (or that it ends the flow), the button's label, and its fields. */
export function ScreenCard({ draft, screen, index, selected, onSelect, onAdded, ...builder }: ScreenCardProps) {
  const { change, placed, readOnly } = builder;
  const set = (patch: ScreenPatch) => change((d) => updateScreen(d, screen.uid, patch));
  const invalid = (prop: string) => invalidProp(placed, screen.uid, prop);
  const isEntry = draft.entry?.kind === "screen" && draft.entry.uid === screen.uid;
  const label = `Screen ${index + 1}`;
  const setNext = (value: string) =>
    set({ next: value === END ? null : value.startsWith("missing:") ? { kind: "missing", id: value.slice(8) } : { kind: "screen", uid: value } });

  return (
    <section
      aria-label={label}
      id={`flow-screen-${screen.uid}`}
      tabIndex={-1}
      onFocus={onSelect}
      onClick={onSelect}
      data-screen-id={screen.id}
      className={cn(
        "space-y-4 rounded-lg bg-slate-50/70 p-4 ring-1 focus:outline-none",
        placed.screens.get(screen.uid)?.length ? "ring-red-300" : selected ? "ring-2 ring-indigo-300" : "ring-slate-200",
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-900">
          <span className="text-slate-500">{index + 1}.</span>
          <code className="truncate font-mono text-[13px]">{screen.id || "(no id)"}</code>
          {isEntry && <Badge tone="accent">Entry</Badge>}
          {!screen.next && <Badge tone="neutral">Ends the flow</Badge>}
        </h2>
        {!readOnly && (
          <MoveButtons
            name={`screen ${screen.id || index + 1}`}
            index={index}
            count={draft.screens.length}
            onMove={(delta) => change((d) => moveScreen(d, screen.uid, delta))}
            onRemove={() => change((d) => removeScreen(d, screen.uid))}
            removeDisabledReason={draft.screens.length === 1 ? "A flow needs at least one screen." : undefined}
          />
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Screen ID" hint="Letters and underscores, e.g. DETAILS.">
          <Input mono value={screen.id} readOnly={readOnly} aria-invalid={invalid("id")} onChange={(e) => set({ id: e.target.value })} />
        </Field>
        <Field label="Title">
          <Input value={screen.title} readOnly={readOnly} aria-invalid={invalid("title")} onChange={(e) => set({ title: e.target.value })} />
        </Field>
        <Field label="Body" optional className="sm:col-span-2">
          <Textarea rows={2} value={screen.body} readOnly={readOnly} aria-invalid={invalid("body")} onChange={(e) => set({ body: e.target.value })} />
        </Field>
        <Field label="Next screen">
          <Select value={refValue(screen.next)} disabled={readOnly} aria-invalid={invalid("next")} onChange={(e) => setNext(e.target.value)}>
            <option value={END}>— ends the flow —</option>
            {draft.screens
              .filter((other) => other.uid !== screen.uid)
              .map((other) => (
                <option key={other.uid} value={other.uid}>
                  {other.id || "(no id)"}
                </option>
              ))}
            {screen.next?.kind === "missing" && <option value={`missing:${screen.next.id}`}>{screen.next.id} (no such screen)</option>}
          </Select>
        </Field>
        <Field label="Submit button label" optional>
          <Input
            value={screen.submit_label}
            readOnly={readOnly}
            aria-invalid={invalid("submit_label")}
            onChange={(e) => set({ submit_label: e.target.value })}
          />
        </Field>
      </div>
      <FindingList findings={placed.screens.get(screen.uid)} label={`Problems with screen ${screen.id || index + 1}`} />
      <div className="space-y-2">
        <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">Fields</h3>
        {screen.fields.length === 0 && <p className="text-[13px] text-slate-500">No fields: this screen only shows its text.</p>}
        {screen.fields.map((field, fieldIndex) => (
          <FieldCard key={field.uid} {...builder} field={field} index={fieldIndex} count={screen.fields.length} />
        ))}
        {!readOnly && (
          <AddField
            screenLabel={label}
            onAdd={(type) => {
              const uid = newUid("f");
              change((d) => addField(d, screen.uid, type, uid).draft);
              onAdded(uid);
            }}
          />
        )}
      </div>
    </section>
  );
}
