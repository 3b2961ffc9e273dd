"use client";

import { useRef, type ChangeEvent } from "react";
import { Button, Card, CardBody, CardFooter, CardHeader, FolderIcon, FormError } from "@/components/ui";
import { useConfigSchema } from "@/lib/client/config";
import { LazyDocumentEditor } from "./document-editor-lazy";
import { FormatToggle } from "./format-toggle";
import type { ConfigDraft } from "./use-config-draft";

const ACCEPT = ".json,.yaml,.yml,application/json,application/yaml,text/yaml,text/x-yaml";

/**
 * The document to apply: uploaded from a file (previewed at once) or pasted into the editor, then
 * "Preview changes". Text that is not JSON or YAML is caught here, with its line, before any request.
 */
export function DraftCard({ projectId, draft }: { projectId: string; draft: ConfigDraft }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const schema = useConfigSchema(projectId);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) fires another change.
    event.target.value = "";
    if (file) draft.load(await file.text(), file.name);
  };

  return (
    <Card aria-labelledby="config-draft-heading">
      <CardHeader
        title={<span id="config-draft-heading">Apply a config</span>}
        description="Upload a config file (JSON or YAML) or paste one below. You see what would change and every issue before anything is written."
        actions={
          <>
            <FormatToggle value={draft.format} onChange={draft.changeFormat} label="Format of the document to apply" />
            <input
              ref={fileInput}
              type="file"
              accept={ACCEPT}
              className="sr-only"
              aria-label="Config file to upload"
              tabIndex={-1}
              onChange={(e) => void upload(e)}
            />
            <Button size="sm" icon={<FolderIcon />} onClick={() => fileInput.current?.click()}>
              Upload
            </Button>
          </>
        }
      />
      <CardBody className="space-y-2">
        {draft.fileName && (
          <p className="text-[13px] text-slate-500">
            From <code className="font-mono text-[12px] text-slate-700">{draft.fileName}</code>
          </p>
        )}
        <LazyDocumentEditor
          name="draft"
          format={draft.format}
          value={draft.text}
          onChange={draft.edit}
          label="Config to apply"
          schema={schema.data ?? null}
          height="22rem"
          testId="config-draft-editor"
        />
        <FormError>{draft.parseError}</FormError>
      </CardBody>
      <CardFooter>
        {draft.text && (
          <Button variant="ghost" onClick={draft.clear}>
            Clear
          </Button>
        )}
        <Button variant="primary" disabled={!draft.text.trim()} loading={draft.diff.isPending} onClick={draft.preview}>
          Preview changes
        </Button>
      </CardFooter>
    </Card>
  );
}
