import { projectPath } from "@/components/shell/nav-links";

export function functionsPath(projectId: string): string {
  return projectPath(projectId, "functions");
}

export function functionPath(projectId: string, functionId: string): string {
  return projectPath(projectId, `functions/${encodeURIComponent(functionId)}`);
}
