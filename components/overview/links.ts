import type { IssueTarget } from "./readiness-copy";

/** A page of the project: `/projects/{id}/{segment}`. */
export function projectHref(projectId: string, segment = ""): string {
  return `/projects/${encodeURIComponent(projectId)}${segment ? `/${segment}` : ""}`;
}

/** Overview sections are anchors on this page; the rest are sibling pages. */
export function targetHref(projectId: string, target: IssueTarget): string {
  return "section" in target ? `#${target.section}` : projectHref(projectId, target.page);
}

/** Ids of the overview's sections (the readiness cards link to them). */
export const SECTION_IDS = { webhook: "webhook", settings: "settings", sandbox: "sandbox" } as const;
