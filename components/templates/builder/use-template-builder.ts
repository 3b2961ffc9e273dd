"use client";

import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { useToast } from "@/components/ui";
import { useLeaveGuard } from "@/components/ui/use-leave-guard";
import { isApiError } from "@/lib/client/api";
import { useCreateTemplate } from "@/lib/client/templates";
import { defaultChannelId } from "../model/channels";
import { buildRequest, emptyDraft, type BuiltRequest, type TemplateDraft } from "../model/draft";
import { fieldPaths, placeIssues } from "../model/issues";
import { describeSubmitError } from "../model/submit-error";
import { templatesPath } from "../paths";
import { useTemplateChannels } from "../use-template-channels";
import type { ErrorOf, UpdateDraft } from "./builder-props";

/**
 * The builder's state: the draft (its channel defaulting to the first that can submit), the submit,
 * and the server's answer placed on the fields of the submission it answered. Success goes back to
 * the list, where the new template shows PENDING.
 */
export function useTemplateBuilder(projectId: string) {
  const router = useRouter();
  const toast = useToast();
  const create = useCreateTemplate(projectId);
  const channels = useTemplateChannels(projectId);
  const [stored, setDraft] = useState<TemplateDraft>(emptyDraft);
  const [submittedAt, setSubmittedAt] = useState<BuiltRequest["at"] | null>(null);
  const keys = useRef(0);

  const draft = useMemo(() => ({ ...stored, channelId: stored.channelId || defaultChannelId(channels.candidates) }), [stored, channels.candidates]);
  const update: UpdateDraft = useCallback((recipe) => setDraft((current) => recipe(current)), []);
  const nextKey = useCallback(() => `button-${++keys.current}`, []);

  const issues = isApiError(create.error) ? create.error.issues : undefined;
  const placed = useMemo(() => placeIssues(issues, submittedAt ? fieldPaths(stored, submittedAt) : []), [issues, stored, submittedAt]);
  const problem = describeSubmitError(create.error, Object.keys(placed.byField).length);

  const errorOf: ErrorOf = (section, sub) => {
    if (!submittedAt) return undefined;
    let path = sub ?? "";
    if (section) {
      const index = submittedAt[section];
      if (index === undefined) return undefined;
      path = sub ? `components.${index}.${sub}` : `components.${index}`;
    }
    return placed.byField[path]?.join(" ");
  };

  const submit = () => {
    const built = buildRequest(draft);
    setSubmittedAt(built.at);
    create.mutate(built.request, {
      onSuccess: (template) => {
        toast.show({ title: `Template ${template.name} submitted`, description: "It shows PENDING until the provider's review.", tone: "success" });
        router.push(templatesPath(projectId));
      },
    });
  };

  useLeaveGuard(!create.isSuccess && (stored.name !== "" || stored.body.text !== ""));
  return { draft, update, nextKey, channels, submit, pending: create.isPending, problem, otherIssues: placed.rest, errorOf };
}
