"use client";

import { useState } from "react";
import { Button, Card, CardBody, CardHeader, PlusIcon, Select } from "@/components/ui";
import { isAuthentication, newButton, type ButtonDraft } from "../model/draft";
import { BUTTON_LABELS, BUTTON_TYPES, LIMITS, type ButtonType } from "../model/vocabulary";
import type { SectionProps } from "./builder-props";
import { ButtonCard } from "./button-card";

/**
 * BUTTONS: up to 10 of quick reply, link, call, copy code and Flow; an AUTHENTICATION template has
 * its one OTP button instead (set when the category is picked).
 */
export function ButtonsSection({ draft, update, errorOf, projectId, nextKey }: SectionProps & { projectId: string; nextKey: () => string }) {
  const [kind, setKind] = useState<ButtonType>("QUICK_REPLY");
  const auth = isAuthentication(draft);
  const full = draft.buttons.length >= LIMITS.buttons;
  const change = (key: string, patch: Partial<ButtonDraft>) =>
    update((d) => ({ ...d, buttons: d.buttons.map((button) => (button.key === key ? { ...button, ...patch } : button)) }));
  const remove = (key: string) => update((d) => ({ ...d, buttons: d.buttons.filter((button) => button.key !== key) }));
  const add = () => {
    const button = newButton(kind, nextKey());
    update((d) => ({ ...d, buttons: [...d.buttons, button] }));
  };
  const sectionError = errorOf("BUTTONS", "buttons") ?? errorOf("BUTTONS");

  return (
    <Card>
      <CardHeader
        title="Buttons"
        description={
          auth
            ? "One code button: the customer copies the code, or an Android app fills it in."
            : `Optional, up to ${LIMITS.buttons}. Keep quick replies together, before or after the others.`
        }
      />
      <CardBody className="space-y-3">
        {draft.buttons.map((button, index) => (
          <ButtonCard
            key={button.key}
            projectId={projectId}
            button={button}
            index={index}
            removable={!auth}
            onChange={(patch) => change(button.key, patch)}
            onRemove={() => remove(button.key)}
            errorOf={(sub) => errorOf("BUTTONS", sub ? `buttons.${index}.${sub}` : `buttons.${index}`)}
          />
        ))}
        {!auth && (
          <div className="flex flex-wrap items-center gap-2">
            <Select aria-label="Kind of the new button" value={kind} onChange={(e) => setKind(e.target.value as ButtonType)} className="w-56" disabled={full}>
              {BUTTON_TYPES.map((type) => (
                <option key={type} value={type}>
                  {BUTTON_LABELS[type]}
                </option>
              ))}
            </Select>
            <Button icon={<PlusIcon size={14} />} onClick={add} disabled={full}>
              Add button
            </Button>
            {full && <span className="text-xs text-slate-500">{LIMITS.buttons} buttons is the most a template holds.</span>}
          </div>
        )}
        {sectionError && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {sectionError}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
