/**
 * Runs once when a Next.js server starts: opens the database (migrations, reference data, bootstrap)
 * before the first request so a broken set-up fails loudly at start rather than on first use.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Each request's socket address, for the client-address rules (lib/api/client-ip.ts).
  const { stampEveryServersPeers } = await import("@/lib/server/peer-address");
  stampEveryServersPeers();
  const { getRuntime } = await import("@/lib/server/runtime");
  await getRuntime();
}
