"use client";

import { useMemo, useState, type ChangeEvent, type ComponentPropsWithRef } from "react";
import { Button, Card, CardBody, CardHeader, Field, Tab, TabList, TabPanel, Tabs, Textarea, useFieldControl } from "@/components/ui";
import { useTemplate } from "@/lib/client/templates";
import { variableKeys } from "@/lib/shared/broadcasts/parameters";
import type { TemplateShape } from "@/lib/shared/templates/types";
import { templateShape } from "@/lib/shared/templates/validate";
import { parsePastedNumbers, parseRecipientsCsv, type ParsedRecipients } from "./model/recipients-csv";
import { CsvPreview } from "./csv-preview";
import { LineErrors, UploadResult } from "./upload-result";
import { useRecipientUpload } from "./use-recipient-upload";

/** A native file picker wired to its Field (label, hint) like Input is. */
function FileInput(props: Omit<ComponentPropsWithRef<"input">, "type">) {
  const field = useFieldControl(props);
  return <input type="file" {...props} {...field} />;
}

/** What the rows are checked against: the broadcast's template, read once; `ready` once it answered (or failed: the server still judges). */
interface TemplateCheck {
  shape: TemplateShape | null;
  ready: boolean;
}

function useTemplateCheck(projectId: string, templateId: string): TemplateCheck {
  const template = useTemplate(projectId, templateId);
  const shape = useMemo(() => (template.data ? templateShape(template.data.components) : null), [template.data]);
  return { shape, ready: !template.isPending };
}

function columnsHint(shape: TemplateShape | null): string {
  const base = "A header row, then one recipient per row: a to (or phone) column with the number in international format, or a contact_id column.";
  if (!shape) return `${base} Every other column becomes a template variable of that name, e.g. 1 or first_name.`;
  const keys = variableKeys(shape);
  if (keys.length === 0) return `${base} This broadcast's template has no variables: no other columns.`;
  return `${base} This broadcast's template also takes ${keys.join(", ")}: one column each, named so.`;
}

function CsvTab({ busy, check, onUpload }: { busy: boolean; check: TemplateCheck; onUpload: (parsed: ParsedRecipients) => void }) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setFile(chosen ? { name: chosen.name, text: await chosen.text() } : null);
  };
  // Judged again when the template answers: the server's rules, before anything is uploaded.
  const parsed = useMemo(() => (file ? parseRecipientsCsv(file.text, check.shape) : null), [file, check.shape]);
  const count = parsed?.recipients.length ?? 0;
  return (
    <div className="space-y-4">
      <Field label="CSV file" hint={columnsHint(check.shape)}>
        <FileInput
          key={inputKey}
          accept=".csv,text/csv"
          onChange={(event) => void choose(event)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200"
        />
      </Field>
      {file && parsed && <CsvPreview name={file.name} parsed={parsed} />}
      {parsed && <LineErrors title="Rows left out: fix them in the file and choose it again" errors={parsed.errors} testId="recipient-file-errors" />}
      {count > 0 && (
        <Button
          variant="primary"
          loading={busy}
          disabled={!check.ready}
          onClick={() => {
            // The batch now lives in the upload (its retry resends it): clearing the file keeps a second press from sending it again.
            if (parsed) onUpload(parsed);
            setFile(null);
            setInputKey((key) => key + 1);
          }}
        >
          Upload {count} {count === 1 ? "recipient" : "recipients"}
        </Button>
      )}
    </div>
  );
}

function pasteHint(shape: TemplateShape | null): string {
  const keys = shape ? variableKeys(shape) : [];
  const base = "One per line (or separated by commas), in international format.";
  return keys.length === 0
    ? base
    : `${base} This broadcast's template takes ${keys.join(", ")} for each recipient, which pasted numbers can't carry: upload a CSV instead.`;
}

function PasteTab({ busy, check, onUpload }: { busy: boolean; check: TemplateCheck; onUpload: (parsed: ParsedRecipients) => void }) {
  const [text, setText] = useState("");
  const parsed = parsePastedNumbers(text, check.shape);
  const count = parsed.recipients.length;
  return (
    <div className="space-y-4">
      <Field label="Phone numbers" hint={pasteHint(check.shape)}>
        <Textarea mono rows={6} value={text} onChange={(e) => setText(e.target.value)} placeholder={"+14155550123\n+14155550124"} />
      </Field>
      <LineErrors title="Lines left out" errors={parsed.errors} testId="recipient-paste-errors" />
      <Button
        variant="primary"
        loading={busy}
        disabled={count === 0 || !check.ready}
        onClick={() => {
          onUpload(parsed);
          setText("");
        }}
      >
        Add {count} {count === 1 ? "number" : "numbers"}
      </Button>
    </div>
  );
}

/** Adding recipients while the broadcast is a draft or scheduled: a CSV upload or pasted numbers, sent in chunks. */
export function RecipientsPanel({ projectId, broadcastId, templateId }: { projectId: string; broadcastId: string; templateId: string }) {
  const upload = useRecipientUpload(projectId, broadcastId);
  const check = useTemplateCheck(projectId, templateId);
  const busy = upload.state.phase === "uploading";
  const start = (parsed: ParsedRecipients) => upload.start(parsed.recipients);
  return (
    <Card>
      <CardHeader
        title="Add recipients"
        description="Numbers already on the list are counted once. Customers without an active opt-in are skipped when it sends."
      />
      <CardBody className="space-y-4">
        <Tabs defaultValue="csv">
          <TabList label="How to add recipients">
            <Tab value="csv">Upload a CSV</Tab>
            <Tab value="paste">Paste numbers</Tab>
          </TabList>
          <TabPanel value="csv">
            <CsvTab busy={busy} check={check} onUpload={start} />
          </TabPanel>
          <TabPanel value="paste">
            <PasteTab busy={busy} check={check} onUpload={start} />
          </TabPanel>
        </Tabs>
        <UploadResult state={upload.state} onRetry={upload.retry} />
      </CardBody>
    </Card>
  );
}
