"use client";

import { LazyJsonEditor } from "@/components/code-editor/json-editor-lazy";
import { Field, Input } from "@/components/ui";

export interface InvokeValues {
  argumentsText: string;
  contactId: string;
  contactPhone: string;
}

/** The invoke request's inputs: arguments as JSON (checked against the input_schema while typing) and an optional contact. */
export function InvokeForm({
  functionId,
  inputSchema,
  values,
  onChange,
  argumentsError,
}: {
  functionId: string;
  inputSchema: Record<string, unknown> | null;
  values: InvokeValues;
  onChange: (values: InvokeValues) => void;
  argumentsError: string | null;
}) {
  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <p aria-hidden="true" className="text-[13px] font-medium text-slate-800">
          Arguments
        </p>
        <LazyJsonEditor
          path={`function-args/${functionId}.json`}
          value={values.argumentsText}
          onChange={(argumentsText) => onChange({ ...values, argumentsText })}
          label="Invoke arguments (JSON)"
          schema={inputSchema}
          height="9rem"
          testId="invoke-arguments-editor"
        />
        <p className="text-xs leading-5 text-slate-500">
          {inputSchema
            ? "event.arguments, checked against the function's input_schema as you type."
            : "event.arguments: a JSON object. Set an input_schema in Settings to check it."}
        </p>
        {argumentsError && (
          <p role="alert" className="text-xs leading-5 font-medium text-red-600">
            {argumentsError}
          </p>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Contact id" optional hint="A contact of this project.">
          <Input mono value={values.contactId} onChange={(e) => onChange({ ...values, contactId: e.target.value })} maxLength={200} autoComplete="off" />
        </Field>
        <Field label="Contact phone" optional hint="Or just a number.">
          <Input mono value={values.contactPhone} onChange={(e) => onChange({ ...values, contactPhone: e.target.value })} maxLength={40} autoComplete="off" />
        </Field>
      </div>
    </div>
  );
}
