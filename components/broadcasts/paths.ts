import { projectPath } from "@/components/shell/nav-links";

export function broadcastsPath(projectId: string): string {
  return projectPath(projectId, "broadcasts");
}

export function broadcastPath(projectId: string, broadcastId: string): string {
  return projectPath(projectId, `broadcasts/${encodeURIComponent(broadcastId)}`);
}
