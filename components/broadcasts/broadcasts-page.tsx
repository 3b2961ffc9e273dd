"use client";

import { useState } from "react";
import Link from "next/link";
import { projectPath } from "@/components/shell/nav-links";
import { Button, EmptyState, ErrorState, Field, InfoIcon, PageHeader, PlusIcon, Select, SkeletonGroup, SkeletonRows } from "@/components/ui";
import { useTemplateChannels } from "@/components/templates/use-template-channels";
import { BROADCAST_STATUS_LIST, useBroadcasts, type BroadcastStatus } from "@/lib/client/broadcasts";
import { can, useCurrentProject } from "@/lib/client/me";
import { BroadcastsIcon } from "@/components/ui";
import { BroadcastsTable } from "./broadcasts-table";
import { STATUS } from "./model/vocabulary";
import { NewBroadcastDialog } from "./new-broadcast-dialog";
import { Pager } from "./pager";
import { useCursorPages } from "./use-cursor-pages";

/** Broadcasts send templates, which need the project's own PLATFORM_A number: the shared sandbox can't. */
function NoNumberNote({ projectId }: { projectId: string }) {
  return (
    <div role="note" className="flex gap-3 rounded-lg bg-sky-50 px-4 py-3 text-[13px] text-sky-900 ring-1 ring-sky-600/15 ring-inset">
      <InfoIcon className="mt-0.5 shrink-0 text-sky-600" />
      <p>
        Broadcasts send approved templates from a dedicated business messaging (PLATFORM_A) number: the shared sandbox can&apos;t send templates. Connect your
        number on{" "}
        <Link href={projectPath(projectId, "channels")} className="font-medium text-indigo-700 hover:text-indigo-600">
          Channels
        </Link>
        , then build a template.
      </p>
    </div>
  );
}

/** /projects/[id]/broadcasts: one approved template sent to many customers, with each broadcast's progress. */
export function BroadcastsPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const [status, setStatus] = useState<BroadcastStatus | undefined>();
  const pages = useCursorPages();
  const broadcasts = useBroadcasts(projectId, { status }, pages.cursor);
  const channels = useTemplateChannels(projectId);
  const [creating, setCreating] = useState(false);
  const list = broadcasts.data?.data ?? [];

  const newButton = canWrite && (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      New broadcast
    </Button>
  );

  return (
    <div className="space-y-5">
      <PageHeader
        className="mb-0"
        title="Broadcasts"
        description="Send one approved template to many customers at once, paced to your number's throughput, and follow each message to delivered."
        actions={newButton}
      />
      {channels.query.isSuccess && channels.candidates.length === 0 && <NoNumberNote projectId={projectId} />}
      {(list.length > 0 || status) && (
        <Field label="Status" className="w-full sm:w-44">
          <Select
            value={status ?? ""}
            onChange={(e) => {
              setStatus((e.target.value || undefined) as BroadcastStatus | undefined);
              pages.reset();
            }}
          >
            <option value="">Any status</option>
            {BROADCAST_STATUS_LIST.map((value) => (
              <option key={value} value={value}>
                {STATUS[value].label}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {broadcasts.isPending ? (
        <SkeletonGroup label="Loading broadcasts">
          <SkeletonRows rows={4} columns={5} />
        </SkeletonGroup>
      ) : broadcasts.isError ? (
        <ErrorState error={broadcasts.error} title="Couldn't load broadcasts" onRetry={() => void broadcasts.refetch()} retrying={broadcasts.isFetching} />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<BroadcastsIcon />}
          title={status ? "No broadcasts in this status" : "No broadcasts yet"}
          description={
            status
              ? undefined
              : canWrite
                ? "Pick an approved template, upload your recipients as a CSV, and send. Broadcasts need your own business messaging (PLATFORM_A) number: the shared sandbox can't send templates."
                : "A developer or admin of this organization can create one."
          }
          action={status ? <Button onClick={() => setStatus(undefined)}>Clear filter</Button> : newButton}
        />
      ) : (
        <>
          <BroadcastsTable projectId={projectId} broadcasts={list} channelNames={channels.names} />
          <Pager
            label="Broadcast pages"
            page={pages.page}
            hasPrevious={pages.hasPrevious}
            hasNext={broadcasts.data?.has_more === true}
            onPrevious={pages.previous}
            onNext={() => pages.next(list.at(-1)?.id)}
            loading={broadcasts.isPlaceholderData}
          />
        </>
      )}
      {canWrite && creating && <NewBroadcastDialog projectId={projectId} onClose={() => setCreating(false)} channels={channels.candidates} />}
    </div>
  );
}
