"use client";

import { useState } from "react";
import {
  Badge,
  Button,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  SkeletonGroup,
  SkeletonRows,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Table,
  TableContainer,
  Time,
  useToast,
} from "@/components/ui";
import { useFunctionVersions, useRollbackFunction, type FunctionVersion } from "@/lib/client/functions";

function VersionRow({ version, canWrite, onRollback }: { version: FunctionVersion; canWrite: boolean; onRollback: () => void }) {
  return (
    <TR data-testid="version-row" data-version-id={version.id} data-active={version.is_active}>
      <TD numeric className="w-16 font-medium text-slate-900">
        {version.number}
      </TD>
      <TD mono className="text-slate-700">
        {version.script_name}
      </TD>
      <TD mono className="text-slate-600">
        {version.runtime}
      </TD>
      <TD numeric className="text-slate-600">
        {version.bytes.toLocaleString("en")} B
      </TD>
      <TD className="text-slate-600">
        <Time value={version.created_at} />
      </TD>
      <TD className="text-right">
        {version.is_active ? (
          <Badge tone="success" dot>
            Live
          </Badge>
        ) : (
          canWrite && (
            <Button size="sm" onClick={onRollback} aria-label={`Roll back to version ${version.number}`} data-testid="version-rollback">
              Roll back
            </Button>
          )
        )}
      </TD>
    </TR>
  );
}

/** Every deployed version, newest first; the live one is marked, any other can become live again (after a confirmation). */
export function VersionsPanel({ projectId, functionId, canWrite, dirty }: { projectId: string; functionId: string; canWrite: boolean; dirty: boolean }) {
  const toast = useToast();
  const versions = useFunctionVersions(projectId, functionId);
  const rollback = useRollbackFunction(projectId, functionId);
  const [target, setTarget] = useState<FunctionVersion | null>(null);
  const all = versions.data?.pages.flatMap((page) => page.data) ?? [];

  if (versions.isPending) {
    return (
      <SkeletonGroup label="Loading versions">
        <SkeletonRows rows={3} columns={6} />
      </SkeletonGroup>
    );
  }
  if (versions.isError)
    return <ErrorState error={versions.error} title="Couldn't load the versions" onRetry={() => void versions.refetch()} retrying={versions.isFetching} />;
  if (all.length === 0) return <EmptyState compact title="No versions yet" description="Each successful deploy makes a version; the newest becomes live." />;

  return (
    <div className="space-y-4">
      <TableContainer label="Versions">
        <Table caption="Deployed versions, newest first">
          <THead>
            <tr>
              <TH className="text-right">Version</TH>
              <TH>Script</TH>
              <TH>Runtime</TH>
              <TH className="text-right">Size</TH>
              <TH>Deployed</TH>
              <TH>
                <span className="sr-only">State</span>
              </TH>
            </tr>
          </THead>
          <TBody>
            {all.map((version) => (
              <VersionRow key={version.id} version={version} canWrite={canWrite} onRollback={() => setTarget(version)} />
            ))}
          </TBody>
        </Table>
      </TableContainer>
      {versions.hasNextPage && (
        <div className="flex justify-center">
          <Button onClick={() => void versions.fetchNextPage()} loading={versions.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={target !== null}
        onClose={() => setTarget(null)}
        tone="primary"
        title={target ? `Roll back to version ${target.number}?` : "Roll back?"}
        description={
          target
            ? `${target.script_name} becomes the live code for every run: tests, invokes, automations and tools. ${dirty ? "Your undeployed edits stay in the editor." : "The editor shows its source."}`
            : undefined
        }
        confirmLabel="Roll back"
        onConfirm={async () => {
          if (!target) return;
          await rollback.mutateAsync(target.id);
          toast.show({ tone: "success", title: `Version ${target.number} is live` });
        }}
      />
    </div>
  );
}
