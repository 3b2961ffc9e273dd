"use client";

import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { useToast } from "@/components/ui";
import { useLeaveGuard } from "@/components/ui/use-leave-guard";
import { isApiError } from "@/lib/client/api";
import { useCreateTemplate } from "@/lib/client/templates";
import { validateTemplateRequest } from "@/lib/shared/templates/request";
import { defaultChannelId } from "../model/channels";
import { buildRequest, emptyDraft, type BuiltRequest, type TemplateDraft } from "../model/draft";
import { fieldPaths, placeIssues, type PlacedIssues } from "../model/issues";
import { describeSubmitError, uncheckedProblem } from "../model/submit-error";
import { templatesPath } from "../paths";
import { useTemplateChannels } from "../use-template-channels";
import type { ErrorOf, UpdateDraft } from "./builder-props";

/** The path an ErrorOf call names, given where each section sits in a request. */
function pathOf(at: BuiltRequest["at"], section: Parameters<ErrorOf>[0], sub: string | undefined): string | undefined {
  if (!section) return sub ?? "";
  const index = at[section];
  if (index === undefined) return undefined;
  return sub ? `components.${index}.${sub}` : `components.${index}`;
}

/**
 * The builder's state: the draft (its channel defaulting to the first that can submit), the submit,
 * and what is wrong with it. The draft is judged as it is edited by the server's own rules
 * (lib/shared/templates/request.ts): a submit that breaks them sends nothing and shows each issue on
 * its field, and from then on the issues follow every edit. What only the server can judge (the
 * channel's readiness, a flow's id, the provider's review) comes back from the submit, placed on the
 * fields of the submission it answered. Success goes back to the list, where the new template shows PENDING.
 */
export function useTemplateBuilder(projectId: string) {
  const router = useRouter();
  const toast = useToast();
  const create = useCreateTemplate(projectId);
  const channels = useTemplateChannels(projectId);
  const [stored, setDraft] = useState<TemplateDraft>(emptyDraft);
  const [submittedAt, setSubmittedAt] = useState<BuiltRequest["at"] | null>(null);
  const [checked, setChecked] = useState(false);
  const keys = useRef(0);

  const draft = useMemo(() => ({ ...stored, channelId: stored.channelId || defaultChannelId(channels.candidates) }), [stored, channels.candidates]);
  const update: UpdateDraft = useCallback((recipe) => setDraft((current) => recipe(current)), []);
  const nextKey = useCallback(() => `button-${++keys.current}`, []);

  const built = useMemo(() => buildRequest(draft), [draft]);
  const local = useMemo<PlacedIssues>(() => placeIssues(validateTemplateRequest(built.request).issues, fieldPaths(draft, built.at)), [built, draft]);
  const localCount = Object.keys(local.byField).length + local.rest.length;
  const showLocal = checked && localCount > 0;

  const issues = isApiError(create.error) ? create.error.issues : undefined;
  const placed = useMemo(() => placeIssues(issues, submittedAt ? fieldPaths(stored, submittedAt) : []), [issues, stored, submittedAt]);
  const problem = showLocal ? uncheckedProblem(Object.keys(local.byField).length) : describeSubmitError(create.error, Object.keys(placed.byField).length);

  const errorOf: ErrorOf = (section, sub) => {
    const here = checked ? pathOf(built.at, section, sub) : undefined;
    const mine = here === undefined ? undefined : local.byField[here];
    if (mine) return mine.join(" ");
    const there = submittedAt ? pathOf(submittedAt, section, sub) : undefined;
    return there === undefined ? undefined : placed.byField[there]?.join(" ");
  };

  const submit = () => {
    setChecked(true);
    if (localCount > 0) {
      // Nothing is sent: the first marked field takes the focus once the issues are drawn.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus());
      return;
    }
    setSubmittedAt(built.at);
    create.mutate(built.request, {
      onSuccess: (template) => {
        toast.show({ title: `Template ${template.name} submitted`, description: "It shows PENDING until the provider's review.", tone: "success" });
        router.push(templatesPath(projectId));
      },
    });
  };

  useLeaveGuard(!create.isSuccess && (stored.name !== "" || stored.body.text !== ""));
  const otherIssues = showLocal ? local.rest : placed.rest;
  return { draft, update, nextKey, channels, submit, pending: create.isPending, problem, otherIssues, errorOf };
}
