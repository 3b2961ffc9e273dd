import { livenessResponse } from "@/lib/server/ops-endpoints";

// Liveness for load balancers and supervisors (README "Health and metrics"): the process answers.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(): Promise<Response> {
  return livenessResponse();
}
