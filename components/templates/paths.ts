import { projectPath } from "@/components/shell/nav-links";

export function templatesPath(projectId: string): string {
  return projectPath(projectId, "templates");
}

export function newTemplatePath(projectId: string): string {
  return projectPath(projectId, "templates/new");
}

export function channelsPath(projectId: string): string {
  return projectPath(projectId, "channels");
}
