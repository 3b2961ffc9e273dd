"use client";

import { ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { FolderIcon } from "@/components/ui/icons";
import { firstProjectId, findProject, type Me } from "@/lib/client/me";
import { projectPath } from "./nav-links";

/** The route's project id is not one of the operator's projects (wrong link, or another organization's). */
export function ProjectNotFound({ me }: { me: Me }) {
  const fallback = firstProjectId(me);
  const fallbackName = fallback ? findProject(me, fallback)?.project.name : null;
  return (
    <EmptyState
      icon={<FolderIcon />}
      title="Project not found"
      headingLevel="h1"
      description="This project doesn't exist, or it belongs to an organization you're not a member of."
      action={
        fallback ? (
          <ButtonLink href={projectPath(fallback)} variant="primary">
            Go to {fallbackName ?? "your project"}
          </ButtonLink>
        ) : undefined
      }
      className="mt-10"
    />
  );
}
