import { getRuntime } from "@/lib/server/runtime";
import { metricsResponse } from "@/lib/server/ops-endpoints";

// Prometheus text for a scraper holding SVC_METRICS_TOKEN; 404 when none is set (README "Health and metrics").
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(request: Request): Promise<Response> {
  return metricsResponse(request, getRuntime);
}
