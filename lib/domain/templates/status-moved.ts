import { ReactionList } from "@/lib/domain/shared/reactions";
import type { TemplateStatus } from "./serialize";

/** A template's status moved at the provider (ARCHITECTURE.md, "Reactions"), in the transaction that stored it. */
export interface TemplateStatusMoved {
  projectId: string;
  templateId: string;
  from: TemplateStatus;
  to: TemplateStatus;
}

export const templateStatusMoved = new ReactionList<TemplateStatusMoved>("template status moved");
