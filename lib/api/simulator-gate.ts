import { constantTimeEqual } from "@/lib/crypto/secrets";
import { SIMULATOR_KEY_HEADER, simulatorAccessKey } from "@/lib/domain/sandbox-phone/simulator";

/**
 * The simulator's routes that act as a customer (read any number's inbox, send signed inbound
 * messages, call a flow's endpoint) or steer the provider (control and review test hooks). The Graph
 * API routes (/graph, /media-download, /cdn) are what the app itself calls as the provider: never gated.
 */
const GUARDED = new Set(["customer", "control", "templates"]);

/**
 * The answer of a closed simulator (a production start without SVC_SIMULATOR_PUBLIC=true) to a guarded
 * route called without this installation's simulator key: 404, as for a route that is not there.
 * Null when the request may go on: the simulator is open, the route is not guarded, or the caller is
 * the dashboard's sandbox phone (lib/domain/sandbox-phone/simulator.ts). `path` is what follows
 * /api/simulator; its first segment is judged as the simulator routes it (decoded, empty ones skipped).
 */
export function closedSimulatorAnswer(request: Request, path: string, open: boolean): Response | null {
  if (open) return null;
  const head = path.split("?")[0]!.split("/").find(Boolean);
  if (head === undefined || !GUARDED.has(decoded(head))) return null;
  const key = request.headers.get(SIMULATOR_KEY_HEADER);
  if (key && constantTimeEqual(key, simulatorAccessKey())) return null;
  return Response.json(
    {
      error: "not_found",
      message:
        "Not found. In production the built-in simulator's customer and control routes are closed: use the dashboard's sandbox phone, or set SVC_SIMULATOR_PUBLIC=true on a test installation.",
    },
    { status: 404, headers: { "cache-control": "no-store" } },
  );
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
