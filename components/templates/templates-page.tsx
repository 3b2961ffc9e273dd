"use client";

import { useState } from "react";
import { Button, ButtonLink, ConfirmDialog, EmptyState, ErrorState, PageHeader, PlusIcon, SkeletonGroup, SkeletonRows, useToast } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { useDeleteTemplate, useTemplates, type Template, type TemplateFilters } from "@/lib/client/templates";
import { ChannelReadinessNote } from "./channel-readiness-note";
import { newTemplatePath } from "./paths";
import { TemplateFiltersBar } from "./template-filters";
import { TemplatesIcon } from "@/components/ui/icons";
import { TemplatesTable } from "./templates-table";
import { useTemplateChannels } from "./use-template-channels";

function DeleteTemplateDialog({ projectId, target, onClose }: { projectId: string; target: Template | null; onClose: () => void }) {
  const remove = useDeleteTemplate(projectId);
  const toast = useToast();
  return (
    <ConfirmDialog
      open={target !== null}
      onClose={onClose}
      title={target ? `Delete ${target.name} (${target.language})?` : "Delete template?"}
      description="It is deleted at the provider too: sends that name it fail from now on, and the name can't be reused in this language for a while."
      confirmLabel="Delete template"
      onConfirm={async () => {
        if (!target) return;
        await remove.mutateAsync(target.id);
        toast.show({ title: `Template ${target.name} deleted`, tone: "success" });
      }}
    />
  );
}

/** /projects/[id]/templates: the project's message templates with their review status, filters, and "New template". */
export function TemplatesPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const canWrite = can(role, "write");
  const [filters, setFilters] = useState<TemplateFilters>({});
  const templates = useTemplates(projectId, filters);
  const channels = useTemplateChannels(projectId);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const all = templates.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Boolean(filters.channel_id || filters.status);

  const newButton = canWrite && (
    <ButtonLink href={newTemplatePath(projectId)} variant="primary" icon={<PlusIcon />}>
      New template
    </ButtonLink>
  );

  return (
    <div className="space-y-5">
      <PageHeader
        className="mb-0"
        title="Templates"
        description="Pre-approved messages for writing to customers outside the 24-hour window. Build one, submit it for the provider's review, and send it once APPROVED."
        actions={newButton}
      />
      {channels.query.isSuccess && <ChannelReadinessNote projectId={projectId} candidates={channels.candidates} />}
      {(all.length > 0 || filtered) && <TemplateFiltersBar filters={filters} onChange={setFilters} channels={channels.candidates} />}
      {templates.isPending ? (
        <SkeletonGroup label="Loading templates">
          <SkeletonRows rows={4} columns={7} />
        </SkeletonGroup>
      ) : templates.isError ? (
        <ErrorState error={templates.error} title="Couldn't load templates" onRetry={() => void templates.refetch()} retrying={templates.isFetching} />
      ) : all.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={<TemplatesIcon />}
            title="No templates match these filters"
            action={<Button onClick={() => setFilters({})}>Clear filters</Button>}
          />
        ) : (
          <EmptyState
            icon={<TemplatesIcon />}
            title="No templates yet"
            description={
              canWrite
                ? "Build a template with a live preview, submit it, and watch the provider's review arrive here. Templates need your own business messaging (PLATFORM_A) number: the shared sandbox can't send them."
                : "A developer or admin of this organization can create one."
            }
            action={newButton}
          />
        )
      ) : (
        <>
          <TemplatesTable templates={all} channelNames={channels.names} canWrite={canWrite} onDelete={setDeleting} />
          {templates.hasNextPage && (
            <div className="flex justify-center">
              <Button onClick={() => void templates.fetchNextPage()} loading={templates.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
      <DeleteTemplateDialog projectId={projectId} target={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
