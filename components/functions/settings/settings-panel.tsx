"use client";

import { useState, type FormEvent } from "react";
import { LazyJsonEditor } from "@/components/code-editor/json-editor-lazy";
import { Button, Card, CardBody, CardFooter, CardHeader, Field, FormError, Input, Switch, useToast } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useUpdateFunction, type HostedFunction } from "@/lib/client/functions";
import { parseInputSchema } from "../model/run-input";
import { DeleteFunction } from "./delete-function";

const SETTINGS_FIELDS = ["name", "is_active", "expose_as_mcp_tool", "input_schema"];

/** The input_schema as JSON text in a small editor; empty text clears the schema. */
function InputSchemaField({
  functionId,
  text,
  onChange,
  error,
  canWrite,
}: {
  functionId: string;
  text: string;
  onChange: (text: string) => void;
  error: string | null | undefined;
  canWrite: boolean;
}) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <p aria-hidden="true" className="text-[13px] font-medium text-slate-800">
          Input schema
        </p>
        {canWrite && text.trim() && (
          <Button size="sm" variant="ghost" onClick={() => onChange("")}>
            Clear schema
          </Button>
        )}
      </div>
      <LazyJsonEditor
        path={`function-schema/${functionId}.json`}
        value={text}
        onChange={onChange}
        label="Input schema (JSON Schema)"
        height="12rem"
        readOnly={!canWrite}
        testId="input-schema-editor"
      />
      <p className="text-xs leading-5 text-slate-500">A JSON Schema (2020-12, type object) invoke arguments must match. Empty: no check.</p>
      {error && (
        <p role="alert" className="text-xs leading-5 font-medium text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** Name, active, exposed as an MCP tool, and the input_schema invoke arguments are checked against (empty clears it). */
export function SettingsPanel({ projectId, fn, canWrite }: { projectId: string; fn: HostedFunction; canWrite: boolean }) {
  const toast = useToast();
  const update = useUpdateFunction(projectId, fn.id);
  const [name, setName] = useState(fn.name);
  const [active, setActive] = useState(fn.is_active);
  const [mcp, setMcp] = useState(fn.expose_as_mcp_tool);
  const [schemaText, setSchemaText] = useState(fn.input_schema ? JSON.stringify(fn.input_schema, null, 2) : "");
  const [schemaError, setSchemaError] = useState<string | null>(null);

  const error = isApiError(update.error) ? update.error : null;
  const nameError = !name.trim() ? "Give the function a name." : error?.fieldError("name");
  const inputSchemaError = schemaError ?? error?.fieldError("input_schema");
  const general = update.error && !SETTINGS_FIELDS.some((field) => error?.fieldError(field)) ? update.error.message : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const schema = parseInputSchema(schemaText);
    setSchemaError(schema.ok ? null : schema.error);
    if (!schema.ok || !name.trim()) return;
    update.mutate(
      { name: name.trim(), is_active: active, expose_as_mcp_tool: mcp, input_schema: schema.value },
      { onSuccess: () => toast.show({ tone: "success", title: "Settings saved" }) },
    );
  };

  return (
    <div className="space-y-6">
      <Card>
        <form onSubmit={submit} noValidate aria-label="Function settings">
          <CardHeader title="Settings" />
          <CardBody className="space-y-5">
            <Field label="Name" error={nameError}>
              <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} disabled={!canWrite} />
            </Field>
            <Switch
              label="Active"
              description="Inactive functions refuse every run (422 function_inactive) until turned on again."
              checked={active}
              onCheckedChange={setActive}
              disabled={!canWrite}
            />
            <Switch
              label="Expose as an MCP tool"
              description="MCP clients with a key of this project see it as a tool; its input_schema describes the tool's arguments."
              checked={mcp}
              onCheckedChange={setMcp}
              disabled={!canWrite}
            />
            <InputSchemaField functionId={fn.id} text={schemaText} onChange={setSchemaText} error={inputSchemaError} canWrite={canWrite} />
            <FormError>{general}</FormError>
          </CardBody>
          {canWrite && (
            <CardFooter>
              <Button type="submit" variant="primary" loading={update.isPending}>
                Save settings
              </Button>
            </CardFooter>
          )}
        </form>
      </Card>
      {canWrite && <DeleteFunction projectId={projectId} fn={fn} />}
    </div>
  );
}
