"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/ui/error-state";
import { Field } from "@/components/ui/field";
import { AlertIcon } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { Skeleton, SkeletonGroup } from "@/components/ui/skeleton";
import { apiFetch, isApiError } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query";
import { useHydrated } from "@/lib/client/use-hydrated";
import { AuthCard, FormError } from "../auth-card";
import { emailProblem, MIN_PASSWORD_LENGTH, passwordProblem, signInWith } from "../sign-in-after";

interface SetupInput {
  name: string;
  email: string;
  password: string;
  organization_name: string;
}

type FieldErrors = Partial<Record<keyof SetupInput, string>>;

function validate(input: SetupInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!input.name) errors.name = "Enter your name.";
  const email = emailProblem(input.email);
  if (email) errors.email = email;
  const password = passwordProblem(input.password);
  if (password) errors.password = password;
  if (!input.organization_name) errors.organization_name = "Name your organization (you can change it later).";
  return errors;
}

/** First run: creates the first owner, their organization and a first project, once. */
export function SetupForm() {
  const router = useRouter();
  const hydrated = useHydrated();
  const setup = useQuery({ queryKey: queryKeys.setup, queryFn: ({ signal }) => apiFetch<{ needed: boolean }>("/api/dashboard/setup", { signal }) });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (setup.data && !setup.data.needed) router.replace("/sign-in");
  }, [setup.data, router]);

  const create = useMutation({
    mutationFn: (input: SetupInput) => apiFetch<{ user: unknown }>("/api/dashboard/setup", { method: "POST", body: input }),
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: SetupInput = {
      name: String(form.get("name") ?? "").trim(),
      email: String(form.get("email") ?? "").trim(),
      password: String(form.get("password") ?? ""),
      organization_name: String(form.get("organization_name") ?? "").trim(),
    };
    const errors = validate(input);
    setFieldErrors(errors);
    setFormError(null);
    if (Object.keys(errors).length > 0) return;
    try {
      await create.mutateAsync(input);
    } catch (error) {
      if (isApiError(error) && error.issues) {
        setFieldErrors({
          name: error.fieldError("name"),
          email: error.fieldError("email"),
          password: error.fieldError("password"),
          organization_name: error.fieldError("organization_name"),
        });
      }
      setFormError(
        isApiError(error) && error.code === "setup_complete"
          ? "svc is already set up. Sign in with your account, or ask an owner for an invitation."
          : error instanceof Error
            ? error.message
            : "Setup failed. Try again.",
      );
      return;
    }
    router.replace((await signInWith(input.email, input.password)) ? "/" : "/sign-in");
  };

  if (setup.isPending || (setup.data && !setup.data.needed)) {
    return (
      <AuthCard title="Set up svc">
        <SkeletonGroup label="Checking setup" className="space-y-4">
          {[0, 1, 2, 3].map((index) => (
            <div key={index} className="space-y-2">
              <Skeleton className="h-3.5 w-24" />
              <Skeleton className="h-9 w-full" />
            </div>
          ))}
        </SkeletonGroup>
      </AuthCard>
    );
  }

  if (setup.isError) {
    return (
      <AuthCard title="Set up svc">
        <ErrorState error={setup.error} onRetry={() => setup.refetch()} retrying={setup.isFetching} compact />
      </AuthCard>
    );
  }

  const busy = create.isPending || create.isSuccess;
  return (
    <AuthCard
      title="Set up svc"
      description="Create the first owner account and your organization. You can invite your team afterwards."
      footer={
        <p>
          Already set up?{" "}
          <Link href="/sign-in" className="font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600">
            Sign in
          </Link>
        </p>
      }
    >
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        {formError && (
          <FormError>
            <AlertIcon className="mt-0.5 shrink-0" />
            <span>{formError}</span>
          </FormError>
        )}
        <Field label="Your name" error={fieldErrors.name}>
          <Input name="name" autoComplete="name" required autoFocus />
        </Field>
        <Field label="Email" error={fieldErrors.email}>
          <Input name="email" type="email" autoComplete="email" inputMode="email" autoCapitalize="none" spellCheck={false} required />
        </Field>
        <Field label="Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} error={fieldErrors.password}>
          <Input name="password" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        </Field>
        <Field label="Organization name" hint="Usually your company or team." error={fieldErrors.organization_name}>
          <Input name="organization_name" autoComplete="organization" required />
        </Field>
        <Button type="submit" variant="primary" size="lg" className="w-full" loading={busy} disabled={!hydrated}>
          {busy ? "Creating your account…" : "Create account"}
        </Button>
      </form>
    </AuthCard>
  );
}
