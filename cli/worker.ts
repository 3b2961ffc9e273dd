import { getRuntime } from "@/lib/server/runtime";

/**
 * `npm run worker`: a process that only runs background jobs (provider sends, ingest, webhook
 * deliveries). Run any number of them beside web processes started with SVC_WORKER=off; pg-boss's
 * SKIP LOCKED claims mean no job runs twice.
 */
try {
  process.loadEnvFile?.(".env");
} catch {
  /* environment variables only */
}
process.env.SVC_WORKER = "on";

const runtime = await getRuntime();
console.log(`svc worker ${process.pid}: running jobs on ${runtime.database.kind}`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`svc worker ${process.pid}: ${signal}, stopping`);
  await runtime.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
