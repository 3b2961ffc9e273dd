"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { AuthCard } from "@/app/(auth)/auth-card";
import { Button, Field, Input } from "@/components/ui";
import { canonicalUserCode } from "@/lib/client/cli-login";

/**
 * Asks for the code the terminal shows: when the link came without one, with a mistyped one, or with
 * one the server does not know (`problem` then says why). Submitting puts the code in the URL, so a
 * reload or a sign-in round trip keeps it.
 */
export function CodeEntryCard({ given, problem }: { given?: string | null; problem?: string }) {
  const router = useRouter();
  const [value, setValue] = useState(given ?? "");
  const [error, setError] = useState(problem);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const userCode = canonicalUserCode(value);
    if (!userCode) {
      setError("Enter the 8 letters your terminal shows, like BCDF-GHJK.");
      return;
    }
    setError(undefined);
    router.replace(`/cli/confirm?code=${userCode}`);
  };

  return (
    <AuthCard
      title="Log in to the svc CLI"
      description={
        <>
          Run <code className="font-mono text-[13px] text-slate-700">npm run svc -- login</code> and enter the code it prints.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Login code" error={error}>
          <Input
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder="BCDF-GHJK"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            mono
            autoFocus
          />
        </Field>
        <Button type="submit" variant="primary" size="lg" className="w-full">
          Continue
        </Button>
      </form>
    </AuthCard>
  );
}
