"use client";

import { useMemo, useState } from "react";
import { Button, Card, CardBody, CardHeader, ErrorState, SkeletonGroup, Skeleton } from "@/components/ui";
import { useConfigExport } from "@/lib/client/config";
import { LazyDocumentEditor } from "./document-editor-lazy";
import { FormatToggle } from "./format-toggle";
import { DOWNLOAD_FILES, serializeDocument, type DocumentFormat } from "./model/document";

/** Saves text as a file through a temporary object URL (the browser's own download, no server round trip). */
function download(text: string, format: DocumentFormat) {
  const file = DOWNLOAD_FILES[format];
  const url = URL.createObjectURL(new Blob([text], { type: file.type }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = file.name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** GET /config, read-only, as YAML or JSON: download it, or copy it into the editor below to change it. */
export function ExportCard({ projectId, onEditCopy }: { projectId: string; onEditCopy?: (text: string, format: DocumentFormat) => void }) {
  const exported = useConfigExport(projectId);
  const [format, setFormat] = useState<DocumentFormat>("yaml");
  const text = useMemo(() => (exported.data ? serializeDocument(exported.data, format) : ""), [exported.data, format]);

  return (
    <Card aria-labelledby="config-export-heading">
      <CardHeader
        title={<span id="config-export-heading">Current config</span>}
        description="This project exported as one document: flows, automations, webhook and settings. Apply it elsewhere, keep it in git, or edit a copy."
        actions={
          <>
            <FormatToggle value={format} onChange={setFormat} label="Format of the exported config" />
            <Button size="sm" disabled={!exported.data} onClick={() => download(text, format)}>
              Download
            </Button>
            {onEditCopy && (
              <Button size="sm" disabled={!exported.data} onClick={() => onEditCopy(text, format)}>
                Edit a copy
              </Button>
            )}
          </>
        }
      />
      <CardBody>
        {exported.isPending ? (
          <SkeletonGroup label="Loading the config">
            <Skeleton className="h-[28rem] w-full" />
          </SkeletonGroup>
        ) : exported.isError ? (
          <ErrorState
            compact
            error={exported.error}
            title="Couldn't export the config"
            onRetry={() => void exported.refetch()}
            retrying={exported.isFetching}
          />
        ) : (
          <LazyDocumentEditor name="export" format={format} value={text} readOnly label="Current config" testId="config-export-editor" />
        )}
      </CardBody>
    </Card>
  );
}
