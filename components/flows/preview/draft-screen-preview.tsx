"use client";

import { DropdownControl, GroupControl, OptInControl } from "@/components/flow-render/choice-controls";
import { TextControl } from "@/components/flow-render/input-controls";
import { ScreenChrome, ScreenFooter } from "@/components/flow-render/screen-chrome";
import { FlowText } from "@/components/flow-render/text-controls";
import type { WorkingField, WorkingScreen } from "../model/working-draft";

const ignore = () => undefined;
const TEXT_INPUT: Partial<Record<WorkingField["type"], string>> = { email: "email", phone: "phone", number: "number" };

function DraftFieldPreview({ field }: { field: WorkingField }) {
  const text = { label: field.label || field.name, required: field.required === true, helper: field.helper_text };
  const options = (field.options ?? []).map((option) => ({ ...option, enabled: true }));
  switch (field.type) {
    case "dropdown":
      return <DropdownControl {...text} options={options} value="" onChange={ignore} />;
    case "radio":
    case "checkbox":
      return <GroupControl {...text} multiple={field.type === "checkbox"} options={options} value={[]} onChange={ignore} />;
    case "optin":
      return <OptInControl {...text} checked={false} onChange={ignore} />;
    default: {
      const control = field.type === "textarea" ? "textarea" : field.type === "date" ? "date" : "text";
      return <TextControl {...text} control={control} inputType={TEXT_INPUT[field.type] ?? "text"} maxChars={field.max_length} value="" onChange={ignore} />;
    }
  }
}

/**
 * An unsaved draft screen, drawn straight from the builder's state with the phone view's own controls:
 * nothing is compiled in the browser, so it shows the screen's parts, not the exact Flow JSON the
 * next save will produce (the saved preview does).
 */
export function DraftScreenPreview({ screen }: { screen: WorkingScreen }) {
  return (
    <div aria-label={screen.title} role="group" className="h-full" data-screen-id={screen.id}>
      <fieldset disabled className="contents">
        <ScreenChrome
          title={screen.title}
          footer={
            <ScreenFooter
              label={screen.submit_label || (screen.next ? "Continue" : "Submit")}
              captions={{ left: "", center: "", right: "" }}
              disabled={false}
            />
          }
        >
          {screen.body && <FlowText variant="body" text={screen.body} />}
          {screen.fields.map((field) => (
            <DraftFieldPreview key={field.uid} field={field} />
          ))}
        </ScreenChrome>
      </fieldset>
    </div>
  );
}
