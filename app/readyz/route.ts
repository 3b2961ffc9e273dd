import { getRuntime } from "@/lib/server/runtime";
import { readinessResponse } from "@/lib/server/ops-endpoints";

// Readiness (README "Health and metrics"): database, migrations, Redis when configured, not draining.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(): Promise<Response> {
  return readinessResponse(getRuntime);
}
