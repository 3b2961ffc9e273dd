"use client";

import { Field, Select, Skeleton } from "@/components/ui";
import type { ApprovableProject } from "@/lib/client/cli-login";

export interface ProjectSelectProps {
  projects: ApprovableProject[];
  value: string;
  onChange: (projectId: string) => void;
  loading: boolean;
  error: Error | null;
}

/** Organizations in the order the project switcher lists them, each with its projects. */
function byOrganization(projects: ApprovableProject[]): [string, ApprovableProject[]][] {
  const groups = new Map<string, ApprovableProject[]>();
  for (const project of projects) groups.set(project.organizationName, [...(groups.get(project.organizationName) ?? []), project]);
  return [...groups];
}

/** The project the key is created in: every project of the operator's organizations (GET /api/dashboard/me, as the switcher). */
export function ProjectSelect({ projects, value, onChange, loading, error }: ProjectSelectProps) {
  if (loading) return <Skeleton className="h-14 w-full" />;
  const selected = projects.find((project) => project.id === value);
  const problem = error
    ? `Could not load your projects: ${error.message}`
    : projects.length === 0
      ? "You have no projects yet, so there is nowhere to create the key. Ask an admin of your organization for access."
      : selected && !selected.canCreateKeys
        ? `Your role in ${selected.organizationName} can't create API keys (it needs the keys:write permission). ${
            projects.some((project) => project.canCreateKeys) ? "Pick a project where you can, or ask" : "Ask"
          } an owner or admin of the organization; you can still deny this login.`
        : undefined;
  return (
    <Field label="Project" hint="The key can only act on this project." error={problem}>
      <Select value={value} onChange={(event) => onChange(event.target.value)} disabled={projects.length === 0}>
        {byOrganization(projects).map(([organization, members]) => (
          <optgroup key={organization} label={organization}>
            {members.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </optgroup>
        ))}
      </Select>
    </Field>
  );
}
