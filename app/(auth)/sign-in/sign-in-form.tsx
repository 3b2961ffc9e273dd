"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { AlertIcon, ExternalLinkIcon } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/lib/client/use-hydrated";
import { AuthCard, FormError } from "../auth-card";

const WRONG_CREDENTIALS = "Email or password is incorrect";

export function SignInForm({ callbackUrl, signedInAs, nextAuthError }: { callbackUrl: string; signedInAs: string | null; nextAuthError: string | null }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(
    nextAuthError === "CredentialsSignin" ? WRONG_CREDENTIALS : nextAuthError ? "Your session has ended. Sign in again." : null,
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!email || !password) {
      setError("Enter your email and password.");
      return;
    }
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (result?.ok && !result.error) {
        router.replace(callbackUrl);
        return; // stay "pending" until the next page takes over
      }
      setError(result?.error === "CredentialsSignin" || result?.status === 401 ? WRONG_CREDENTIALS : "Could not sign in right now. Try again in a moment.");
    } catch {
      setError("Could not reach svc. Check your connection and try again.");
    }
    setPending(false);
  };

  return (
    <AuthCard
      title="Sign in to your dashboard"
      description="Use the email and password of your operator account."
      footer={
        <div className="space-y-3">
          <p>New to a team? Open the invitation link you were sent.</p>
          <p>
            <a
              href="/docs/api"
              className="inline-flex items-center gap-1 rounded-sm font-medium text-slate-600 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              API reference
              <ExternalLinkIcon size={13} />
            </a>
          </p>
        </div>
      }
    >
      {signedInAs && (
        <p className="mb-5 rounded-md bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">
          You are signed in as <span className="font-medium text-slate-900">{signedInAs}</span>.{" "}
          <Link href={callbackUrl} className="font-medium text-indigo-600 hover:text-indigo-500 focus-visible:outline-2 focus-visible:outline-indigo-600">
            Continue
          </Link>
        </p>
      )}
      <form method="post" onSubmit={submit} noValidate className="space-y-4">
        {error && (
          <FormError>
            <AlertIcon className="mt-0.5 shrink-0" />
            <span>{error}</span>
          </FormError>
        )}
        <Field label="Email">
          <Input name="email" type="email" autoComplete="username" inputMode="email" autoCapitalize="none" spellCheck={false} required autoFocus />
        </Field>
        <Field label="Password">
          <Input name="password" type="password" autoComplete="current-password" required />
        </Field>
        <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} disabled={!hydrated}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </AuthCard>
  );
}
