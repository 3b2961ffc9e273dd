import { graphRequest, type AdapterOptions } from "@/lib/ports/provider/graph-http";
import { accountClient as client, callTime as at, unexpectedAnswer } from "@/lib/ports/provider/account-call";
import { type ProviderAccount, type ProviderTemplatesPort } from "@/lib/ports/provider/types";
import { isRecord } from "@/lib/json";

/**
 * PLATFORM_A's message templates API through the Graph client:
 *   POST   {graph}/{waba_id}/message_templates {name, language, category, components, parameter_format?}
 *          → {id, status, category}
 *   DELETE {graph}/{waba_id}/message_templates?name=<name>&hsm_id=<template id> → {success: true}
 * The review result is not in these answers: it arrives later on the provider webhook
 * (`message_template_status_update`). Refusals (100 invalid parameter, 100/2388024 a template of
 * that name already exists in that language, 190 token) come back as ProviderError with the
 * provider's code and subcode, like a refused send.
 */
function templatesPath(account: ProviderAccount): string {
  return `${encodeURIComponent(account.businessAccountId)}/message_templates`;
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export function createTemplatesPort(options: AdapterOptions): ProviderTemplatesPort {
  return {
    async submit(account, template) {
      const body: Record<string, unknown> = {
        name: template.name,
        language: template.language,
        category: template.category,
        components: template.components,
      };
      if (template.parameter_format) body.parameter_format = template.parameter_format;
      const answer = await graphRequest(client(options, account), { method: "POST", path: templatesPath(account), body });
      // Graph ids are strings, but a number must not lose the template: it is read as its digits.
      const rawId = isRecord(answer) ? answer.id : undefined;
      const id = typeof rawId === "number" && Number.isSafeInteger(rawId) ? String(rawId) : nonEmptyString(rawId);
      const status = isRecord(answer) ? nonEmptyString(answer.status) : null;
      if (!id || !status) throw unexpectedAnswer("The provider took the template but did not return its id and status", answer, at(options));
      return { id, status, category: nonEmptyString((answer as Record<string, unknown>).category) };
    },

    async remove(account, template) {
      const query = new URLSearchParams({ name: template.name, hsm_id: template.metaTemplateId });
      const path = `${templatesPath(account)}?${query.toString()}`;
      const answer = await graphRequest(client(options, account), { method: "DELETE", path });
      if (!isRecord(answer) || answer.success !== true) throw unexpectedAnswer("The provider did not confirm the template's deletion", answer, at(options));
    },
  };
}
