"use client";

import { AuthCard } from "@/app/(auth)/auth-card";
import { ErrorState, Skeleton, SkeletonGroup } from "@/components/ui";
import { isApiError } from "@/lib/client/api";
import { useApproveCliCode, useCliCode, useDenyCliCode } from "@/lib/client/cli-login";
import { ApproveForm } from "./approve-form";
import { ApprovedCard } from "./approved-card";
import { ClosedCodeCard } from "./closed-code-card";
import { CodeEntryCard } from "./code-entry-card";

/**
 * One code from load to decision. The mutations live here, not in the form, so their outcome (the
 * key approved, the login denied) stays on screen when the code's state moves on underneath.
 */
export function CodeConfirmation({ userCode }: { userCode: string }) {
  const code = useCliCode(userCode);
  const approve = useApproveCliCode(userCode);
  const deny = useDenyCliCode(userCode);

  if (approve.data) return <ApprovedCard approved={approve.data} />;
  if (deny.isSuccess) return <ClosedCodeCard status="denied" byYou />;

  if (code.isPending) {
    return (
      <AuthCard title="Confirm CLI login">
        <SkeletonGroup label="Loading the login request" className="space-y-4">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-48 w-full" />
        </SkeletonGroup>
      </AuthCard>
    );
  }
  if (code.isError) {
    // A code nobody issued (or mistyped): ask for it again, saying why.
    if (isApiError(code.error) && code.error.status === 404) return <CodeEntryCard given={userCode} problem={code.error.message} />;
    return (
      <AuthCard title="Confirm CLI login">
        <ErrorState error={code.error} onRetry={() => code.refetch()} retrying={code.isFetching} compact />
      </AuthCard>
    );
  }
  if (code.data.status !== "pending") return <ClosedCodeCard status={code.data.status} />;
  return <ApproveForm code={code.data} approve={approve} deny={deny} />;
}
