"use client";

import type { FormEvent } from "react";
import { Button, ButtonLink, ErrorState, PageHeader, SkeletonGroup, SkeletonText } from "@/components/ui";
import { can, useCurrentProject } from "@/lib/client/me";
import { ChannelReadinessNote } from "../channel-readiness-note";
import { templatesPath } from "../paths";
import { BodySection, FooterSection } from "./body-section";
import { ButtonsSection } from "./buttons-section";
import { DetailsSection } from "./details-section";
import { HeaderSection } from "./header-section";
import { MessagePreview } from "./message-preview";
import { SubmitBanner } from "./submit-banner";
import { useTemplateBuilder } from "./use-template-builder";

/** /projects/[id]/templates/new: the component builder beside a live preview; Submit sends it for review and goes back to the list. */
export function TemplateBuilderPage({ projectId }: { projectId: string }) {
  const { role } = useCurrentProject();
  const builder = useTemplateBuilder(projectId);
  const { draft, update, errorOf, channels } = builder;
  const back = { href: templatesPath(projectId), label: "Templates" };

  if (channels.query.isPending) {
    return (
      <SkeletonGroup label="Loading channels">
        <SkeletonText lines={6} />
      </SkeletonGroup>
    );
  }
  if (channels.query.isError) {
    return <ErrorState error={channels.query.error} title="Couldn't load channels" onRetry={() => void channels.query.refetch()} />;
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    builder.submit();
  };
  const sections = { draft, update, errorOf };
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <PageHeader
        className="mb-0"
        back={back}
        title="New template"
        description="Build the message, check it in the preview, and submit it for the provider's review. It can be sent once APPROVED."
        actions={
          <>
            <ButtonLink href={back.href}>Cancel</ButtonLink>
            <Button type="submit" variant="primary" loading={builder.pending} disabled={!can(role, "write")}>
              Submit for review
            </Button>
          </>
        }
      />
      <ChannelReadinessNote projectId={projectId} candidates={channels.candidates} />
      <SubmitBanner problem={builder.problem} otherIssues={builder.otherIssues} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-5">
          <DetailsSection {...sections} candidates={channels.candidates} nextKey={builder.nextKey} />
          <HeaderSection {...sections} />
          <BodySection {...sections} />
          <FooterSection {...sections} />
          <ButtonsSection {...sections} projectId={projectId} nextKey={builder.nextKey} />
        </div>
        <div className="lg:sticky lg:top-4">
          <MessagePreview draft={draft} />
        </div>
      </div>
    </form>
  );
}
