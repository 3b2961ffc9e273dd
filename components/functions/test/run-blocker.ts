import type { HostedFunction } from "@/lib/client/functions";

/** Why a test or invoke cannot run now (the API would answer 422 function_not_deployed / function_inactive), or null. */
export function runBlocker(fn: Pick<HostedFunction, "active_version_id" | "is_active">, canWrite: boolean): string | null {
  if (!canWrite) return "Your role can't run functions.";
  if (!fn.active_version_id) return "Deploy the function first: runs use the deployed version.";
  if (!fn.is_active) return "The function is inactive: turn it on in Settings to run it.";
  return null;
}
