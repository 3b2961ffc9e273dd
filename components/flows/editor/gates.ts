import type { Flow } from "@/lib/client/flows";
import { blocksPublish, type Finding } from "../model/findings";

/**
 * Why an action is not available right now (shown next to the disabled button), or null when it is.
 * The server decides in the end; these spare the operator a request that would be refused.
 */
export interface GateInput {
  flow: Pick<Flow, "status" | "meta_status" | "has_unpublished_changes" | "published_version">;
  dirty: boolean;
  findings: Finding[];
  canWrite: boolean;
}

export function publishBlocker({ flow, dirty, findings, canWrite }: GateInput): string | null {
  if (!canWrite) return "Your role can't publish flows.";
  if (flow.status === "DEPRECATED") return "A deprecated flow can't be published again: create a new flow.";
  if (flow.meta_status === "PUBLISHING") return "Publishing now.";
  if (dirty) return "Save your changes first.";
  const problems = findings.filter(blocksPublish).length;
  if (problems > 0) return `Fix ${problems} ${problems === 1 ? "problem" : "problems"} first.`;
  if (flow.status === "PUBLISHED" && flow.meta_status === "PUBLISHED" && !flow.has_unpublished_changes) return "Nothing new to publish.";
  return null;
}

export function saveBlocker({ flow, dirty, canWrite }: GateInput): string | null {
  if (!canWrite) return "Your role can't edit flows.";
  if (flow.status === "DEPRECATED") return "A deprecated flow can't change.";
  if (!dirty) return "No unsaved changes.";
  return null;
}

export function sendBlocker({ flow }: GateInput): string | null {
  if (flow.status !== "PUBLISHED" || flow.meta_status !== "PUBLISHED") return "Publish the flow first: only a published flow can be sent.";
  return null;
}

/** A flow that was ever published stays (deprecate it instead): the API answers 409 flow_published. */
export const canDelete = ({ flow, canWrite }: GateInput) =>
  canWrite && flow.published_version === null && flow.status === "DRAFT" && flow.meta_status !== "PUBLISHING";

export const canDeprecate = ({ flow, canWrite }: GateInput) => canWrite && flow.status === "PUBLISHED";
