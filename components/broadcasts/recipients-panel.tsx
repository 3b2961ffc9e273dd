"use client";

import { useState, type ChangeEvent, type ComponentPropsWithRef } from "react";
import { Button, Card, CardBody, CardHeader, Field, Tab, TabList, TabPanel, Tabs, Textarea, useFieldControl } from "@/components/ui";
import { parsePastedNumbers, parseRecipientsCsv, type ParsedRecipients } from "./model/recipients-csv";
import { CsvPreview } from "./csv-preview";
import { LineErrors, UploadResult } from "./upload-result";
import { useRecipientUpload } from "./use-recipient-upload";

/** A native file picker wired to its Field (label, hint) like Input is. */
function FileInput(props: Omit<ComponentPropsWithRef<"input">, "type">) {
  const field = useFieldControl(props);
  return <input type="file" {...props} {...field} />;
}

function CsvTab({ busy, onUpload }: { busy: boolean; onUpload: (parsed: ParsedRecipients) => void }) {
  const [file, setFile] = useState<{ name: string; parsed: ParsedRecipients } | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setFile(chosen ? { name: chosen.name, parsed: parseRecipientsCsv(await chosen.text()) } : null);
  };
  const count = file?.parsed.recipients.length ?? 0;
  return (
    <div className="space-y-4">
      <Field
        label="CSV file"
        hint="A header row, then one recipient per row: a to (or phone) column with the number, or a contact_id column. Every other column becomes a template variable of that name, e.g. 1 or first_name."
      >
        <FileInput
          key={inputKey}
          accept=".csv,text/csv"
          onChange={(event) => void choose(event)}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200"
        />
      </Field>
      {file && <CsvPreview name={file.name} parsed={file.parsed} />}
      {file && <LineErrors title="Rows left out" errors={file.parsed.errors} testId="recipient-file-errors" />}
      {count > 0 && (
        <Button
          variant="primary"
          loading={busy}
          onClick={() => {
            // The batch now lives in the upload (its retry resends it): clearing the file keeps a second press from sending it again.
            if (file) onUpload(file.parsed);
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

function PasteTab({ busy, onUpload }: { busy: boolean; onUpload: (parsed: ParsedRecipients) => void }) {
  const [text, setText] = useState("");
  const parsed = parsePastedNumbers(text);
  const count = parsed.recipients.length;
  return (
    <div className="space-y-4">
      <Field label="Phone numbers" hint="One per line (or separated by commas), in international format.">
        <Textarea mono rows={6} value={text} onChange={(e) => setText(e.target.value)} placeholder={"+14155550123\n+14155550124"} />
      </Field>
      <LineErrors title="Lines left out" errors={parsed.errors} testId="recipient-paste-errors" />
      <Button
        variant="primary"
        loading={busy}
        disabled={count === 0}
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
export function RecipientsPanel({ projectId, broadcastId }: { projectId: string; broadcastId: string }) {
  const upload = useRecipientUpload(projectId, broadcastId);
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
            <CsvTab busy={busy} onUpload={start} />
          </TabPanel>
          <TabPanel value="paste">
            <PasteTab busy={busy} onUpload={start} />
          </TabPanel>
        </Tabs>
        <UploadResult state={upload.state} onRetry={upload.retry} />
      </CardBody>
    </Card>
  );
}
