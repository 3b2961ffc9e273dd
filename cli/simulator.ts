import path from "node:path";
import { env } from "@/lib/config";
import { createSimulator } from "@/lib/simulator";
import { serveSimulator } from "@/lib/simulator/server";
import { appSecretFor, simulatorAppSecret } from "@/lib/ports/provider/app-secret";
import { templateReviewDelayMs } from "@/lib/simulator/templates-review";

/**
 * `npm run simulator`: the provider simulator as a process of its own (the app serves the same one
 * at /api/simulator when PROVIDER_GRAPH_URL is unset). Its status callbacks go to SVC_PUBLIC_URL,
 * signed with the documented simulator secrets unless PLATFORM_*_APP_SECRET say otherwise. Point the
 * app at it with the variables it prints. Its memory (windows, inboxes, flows, templates, ...) is kept
 * in $SVC_DATA_DIR/simulator-standalone, apart from the in-app simulator's, and saved when it stops.
 */
try {
  process.loadEnvFile?.(".env");
} catch {
  /* environment variables only */
}
const callbackBase = process.env.SVC_PUBLIC_URL || `http://localhost:${process.env.PORT || 3000}`;
const port = Number(process.env.SVC_SIMULATOR_PORT || 3100);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SVC_SIMULATOR_PORT must be a port number, not ${process.env.SVC_SIMULATOR_PORT}`);
  process.exit(2);
}
const simulator = createSimulator({
  callbackBaseUrl: callbackBase,
  appSecret: (platform) => appSecretFor(platform) ?? simulatorAppSecret(platform),
  templateReviewMs: () => templateReviewDelayMs(process.env.SVC_SIMULATOR_TEMPLATE_REVIEW_MS),
  stateDir: path.join(env().dataDir, "simulator-standalone"),
});
const server = await serveSimulator(simulator, { port, host: process.env.SVC_SIMULATOR_HOST || "127.0.0.1" });
console.log(`svc simulator ${process.pid}: listening on ${server.url}, callbacks to ${callbackBase}`);
// The documented development secrets are printed; a configured one is named, never shown.
const secrets = (["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"] as const).map((p) =>
  process.env[`${p}_APP_SECRET`] ? `${p}_APP_SECRET=<as set for the simulator>` : `${p}_APP_SECRET=${simulatorAppSecret(p)}`,
);
console.log(`point the app at it: PROVIDER_GRAPH_URL=${server.url}/graph ${secrets.join(" ")}`);

async function stop(signal: string) {
  console.log(`svc simulator ${process.pid}: ${signal}, stopping`);
  await server.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
