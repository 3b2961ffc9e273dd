import type { Reaction } from "@/lib/domain/shared/reactions";
import type { TemplateStatusReceived } from "@/lib/domain/ingest/reactions";
import { applyTemplateStatusChange } from "./status";

export const templateStatusFromProvider: Reaction<TemplateStatusReceived> = {
  name: "templates: store a template's review result from the provider",
  async react(ctx, change) {
    await applyTemplateStatusChange(ctx, change);
  },
};
