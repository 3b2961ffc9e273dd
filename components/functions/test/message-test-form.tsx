"use client";

import { Field, Input, Textarea } from "@/components/ui";
import type { TestContactInput } from "../model/run-input";

export interface MessageTestValues {
  text: string;
  contact: TestContactInput;
}

/** The test event's inputs: the message text and, optionally, who sent it. */
export function MessageTestForm({
  values,
  onChange,
  contactError,
}: {
  values: MessageTestValues;
  onChange: (values: MessageTestValues) => void;
  contactError: { field: "id" | "phone"; error: string } | null;
}) {
  const setContact = (changes: Partial<TestContactInput>) => onChange({ ...values, contact: { ...values.contact, ...changes } });
  return (
    <div className="space-y-4">
      <Field label="Message text" optional hint="event.text (at most 4,000 characters).">
        <Textarea
          rows={3}
          value={values.text}
          onChange={(e) => onChange({ ...values, text: e.target.value })}
          maxLength={4000}
          placeholder="Where is my order?"
        />
      </Field>
      <fieldset className="space-y-3">
        <legend className="text-[13px] font-medium text-slate-800">
          Contact <span className="font-normal text-slate-500">(optional: id and phone together)</span>
        </legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Contact id" error={contactError?.field === "id" ? contactError.error : undefined}>
            <Input
              mono
              value={values.contact.id}
              onChange={(e) => setContact({ id: e.target.value })}
              maxLength={200}
              placeholder="ct_test"
              autoComplete="off"
            />
          </Field>
          <Field label="Phone" error={contactError?.field === "phone" ? contactError.error : undefined}>
            <Input
              mono
              value={values.contact.phone}
              onChange={(e) => setContact({ phone: e.target.value })}
              maxLength={40}
              placeholder="+15551234567"
              autoComplete="off"
            />
          </Field>
        </div>
        <Field label="Name" optional>
          <Input value={values.contact.name} onChange={(e) => setContact({ name: e.target.value })} maxLength={200} placeholder="Ada" autoComplete="off" />
        </Field>
      </fieldset>
    </div>
  );
}
