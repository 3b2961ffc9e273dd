"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { AlertIcon, XCircleIcon } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";
import { Time } from "@/components/ui/time";
import { apiFetch, isApiError } from "@/lib/client/api";
import { ROLE_LABELS, type Role } from "@/lib/client/me";
import { queryKeys } from "@/lib/client/query";
import { useHydrated } from "@/lib/client/use-hydrated";
import { AuthCard, FormError } from "../../auth-card";
import { MIN_PASSWORD_LENGTH, passwordProblem, signInWith } from "../../sign-in-after";

/** GET /api/dashboard/invitations/{token} (docs/dashboard.md). */
interface Invitation {
  email: string;
  role: Role;
  organization_name: string;
  expires_at: string;
}

type FieldErrors = { name?: string; password?: string };

const withArticle = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

const invitationUrl = (token: string) => `/api/dashboard/invitations/${encodeURIComponent(token)}`;

// Statuses that mean "this link will never work": no point offering a retry.
const DEAD_LINK = new Set([400, 404, 409, 410]);

export function InviteForm({ token }: { token: string }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const invitation = useQuery({
    queryKey: queryKeys.invitation(token),
    queryFn: ({ signal }) => apiFetch<Invitation>(invitationUrl(token), { signal }),
  });
  const accept = useMutation({
    mutationFn: (input: { name: string; password: string }) => apiFetch<{ user: unknown }>(`${invitationUrl(token)}/accept`, { method: "POST", body: input }),
  });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  if (invitation.isPending) {
    return (
      <AuthCard title="Join your team">
        <SkeletonGroup label="Loading invitation" className="space-y-4">
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </SkeletonGroup>
      </AuthCard>
    );
  }

  if (invitation.isError) {
    const error = invitation.error;
    if (isApiError(error) && DEAD_LINK.has(error.status)) {
      return (
        <div className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
          <EmptyState
            icon={<XCircleIcon />}
            title="This invitation can't be used"
            description="The link is invalid, has already been used, or has expired (invitations last 7 days). Ask an admin of your organization to send a new one."
            action={
              <ButtonLink href="/sign-in" variant="secondary">
                Go to sign in
              </ButtonLink>
            }
            compact
            className="py-10"
          />
        </div>
      );
    }
    return (
      <AuthCard title="Join your team">
        <ErrorState error={error} onRetry={() => invitation.refetch()} retrying={invitation.isFetching} compact />
      </AuthCard>
    );
  }

  const { email, role, organization_name: organization, expires_at: expiresAt } = invitation.data;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { name: String(form.get("name") ?? "").trim(), password: String(form.get("password") ?? "") };
    const errors: FieldErrors = { name: input.name ? undefined : "Enter your name.", password: passwordProblem(input.password) };
    setFieldErrors(errors);
    setFormError(null);
    if (errors.name || errors.password) return;
    try {
      await accept.mutateAsync(input);
    } catch (error) {
      if (isApiError(error) && error.issues) setFieldErrors({ name: error.fieldError("name"), password: error.fieldError("password") });
      setFormError(error instanceof Error ? error.message : "Could not accept the invitation. Try again.");
      return;
    }
    router.replace((await signInWith(email, input.password)) ? "/" : "/sign-in");
  };

  const busy = accept.isPending || accept.isSuccess;
  const roleLabel = ROLE_LABELS[role] ?? role;
  return (
    <AuthCard
      title={`Join ${organization} as ${withArticle(roleLabel.toLowerCase())}`}
      description="You've been invited to this organization on svc. Choose a password to create your account."
    >
      <dl className="mb-5 divide-y divide-slate-100 rounded-md bg-slate-50 text-sm ring-1 ring-slate-200 ring-inset">
        <div className="flex items-center justify-between gap-3 px-3 py-2">
          <dt className="text-slate-500">Email</dt>
          <dd className="truncate font-medium text-slate-900">{email}</dd>
        </div>
        <div className="flex items-center justify-between gap-3 px-3 py-2">
          <dt className="text-slate-500">Link expires</dt>
          <dd className="text-slate-700">
            <Time value={expiresAt} />
          </dd>
        </div>
      </dl>
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        {formError && (
          <FormError>
            <AlertIcon className="mt-0.5 shrink-0" />
            <span>{formError}</span>
          </FormError>
        )}
        {/* Lets password managers save the new credentials under the right email. */}
        <input type="email" name="email" value={email} autoComplete="username" readOnly hidden />
        <Field label="Your name" error={fieldErrors.name}>
          <Input name="name" autoComplete="name" required autoFocus />
        </Field>
        <Field label="Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={fieldErrors.password}>
          <Input name="password" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        </Field>
        <Button type="submit" variant="primary" size="lg" className="w-full" loading={busy} disabled={!hydrated}>
          {busy ? "Joining…" : `Join ${organization}`}
        </Button>
      </form>
    </AuthCard>
  );
}
