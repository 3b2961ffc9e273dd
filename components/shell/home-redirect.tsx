"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useEffect, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { FolderIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { apiFetch } from "@/lib/client/api";
import { firstProjectId, useMe } from "@/lib/client/me";
import { queryKeys } from "@/lib/client/query";
import { projectPath } from "./nav-links";
import { Wordmark } from "./wordmark";

function Frame({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-8 px-4">
      <Wordmark size="lg" />
      <div className="w-full max-w-md">{children}</div>
    </main>
  );
}

function Loading() {
  return (
    <div className="flex justify-center">
      <Spinner size={20} label="Opening your dashboard" />
    </div>
  );
}

/** "/" for a signed-in operator: straight to their first project. */
export function SignedInRedirect() {
  const router = useRouter();
  const me = useMe();
  const target = me.data ? firstProjectId(me.data) : null;
  useEffect(() => {
    if (target) router.replace(projectPath(target));
  }, [target, router]);

  if (me.isError) {
    return (
      <Frame>
        <ErrorState error={me.error} onRetry={() => me.refetch()} retrying={me.isFetching} />
      </Frame>
    );
  }
  if (me.data && !target) {
    return (
      <Frame>
        <EmptyState
          icon={<FolderIcon />}
          title="No projects yet"
          description="You are not a member of any organization with a project. Ask an admin to invite you, or sign in with another account."
          action={<Button onClick={() => void signOut({ callbackUrl: "/sign-in" })}>Sign out</Button>}
        />
      </Frame>
    );
  }
  return (
    <Frame>
      <Loading />
    </Frame>
  );
}

/** "/" for a visitor: first-run setup when no operator exists yet, otherwise sign-in. */
export function SignedOutRedirect() {
  const router = useRouter();
  const setup = useQuery({
    queryKey: queryKeys.setup,
    queryFn: ({ signal }) => apiFetch<{ needed: boolean }>("/api/dashboard/setup", { signal }),
    retry: false,
  });
  useEffect(() => {
    if (setup.data) router.replace(setup.data.needed ? "/setup" : "/sign-in");
    // If the setup check itself fails, sign-in is still the right place to be.
    else if (setup.isError) router.replace("/sign-in");
  }, [setup.data, setup.isError, router]);
  return (
    <Frame>
      <Loading />
    </Frame>
  );
}
