import path from "node:path";

/**
 * Every environment variable the product reads, in one place. Read on each call (not at import) so a
 * test or the CLI can set process.env first.
 */
export const API_VERSION = "2026-06-18";

export function env() {
  const e = process.env;
  const production = e.NODE_ENV === "production";
  return {
    production,
    databaseUrl: e.DATABASE_URL || null,
    /** Connections this process's Postgres pool may open (README "Running in production": pool sizing). */
    databasePoolMax: positiveInt(e.SVC_DATABASE_POOL_MAX, 10),
    /** Bearer token GET /metrics requires; unset → /metrics answers 404 (README "Health and metrics"). */
    metricsToken: e.SVC_METRICS_TOKEN || null,
    /** `npm run worker` only: a port for its own /metrics, /healthz and /readyz; unset → no listener. */
    workerMetricsPort: e.SVC_WORKER_METRICS_PORT ? positiveInt(e.SVC_WORKER_METRICS_PORT, 0) : null,
    workerMetricsHost: e.SVC_WORKER_METRICS_HOST || "127.0.0.1",
    /** SIGTERM: how long in-flight requests and jobs get before the process exits (lib/server/shutdown.ts). */
    shutdownTimeoutMs: positiveInt(e.SVC_SHUTDOWN_TIMEOUT_MS, 30_000),
    /** SIGTERM: how long readiness answers 503 while requests are still served, before the listener closes. */
    shutdownDelayMs: positiveInt(e.SVC_SHUTDOWN_DELAY_MS, 0),
    redisUrl: e.REDIS_URL || null,
    dataDir: path.resolve(/*turbopackIgnore: true*/ e.SVC_DATA_DIR || ".data"),
    bootstrapKey: e.SVC_BOOTSTRAP_KEY || null,
    /** First-run dashboard operator (owner of the first organization), created when both are set. */
    adminEmail: e.SVC_ADMIN_EMAIL || null,
    adminPassword: e.SVC_ADMIN_PASSWORD || null,
    encryptionKey: e.SVC_ENCRYPTION_KEY || null,
    /** Private-network webhook/media targets are allowed in dev and tests, refused in production. */
    allowPrivateNetwork: allowPrivateNetwork(),
    providerGraphUrl: e.PROVIDER_GRAPH_URL || null,
    /**
     * Whether the built-in simulator's customer and control routes (/api/simulator/customer/...,
     * /control/..., /templates/.../review) answer anyone: SVC_SIMULATOR_PUBLIC; unset = open outside
     * production only. Closed, they answer the dashboard's sandbox phone alone (README "Running in production").
     */
    simulatorPublic: e.SVC_SIMULATOR_PUBLIC ? e.SVC_SIMULATOR_PUBLIC === "true" : !production,
    publicUrl: e.SVC_PUBLIC_URL || `http://localhost:${e.PORT || 3000}`,
    /** Browser origins besides SVC_PUBLIC_URL's that may call POST /api/v1/mcp (comma-separated); others get 403 origin_not_allowed. */
    mcpAllowedOrigins: (e.SVC_MCP_ALLOWED_ORIGINS || "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    /** Reverse proxies whose X-Forwarded-For is believed (addresses and CIDR ranges, comma-separated): lib/api/client-ip.ts. */
    trustedProxies: (e.SVC_TRUSTED_PROXIES || "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    sandboxParticipantCap: Number(e.SVC_SANDBOX_PARTICIPANT_CAP || 5),
    /** The shared sandbox number's token against a real provider; unset → the simulator's. */
    sandboxAccessToken: e.SVC_SANDBOX_ACCESS_TOKEN || null,
    /** Object storage for cached media: S3-compatible when set, else a folder under dataDir/media. */
    s3Bucket: e.S3_BUCKET || null,
    s3Region: e.S3_REGION || "us-east-1",
    /** For S3-compatible servers (MinIO, Ceph, R2, ...); unset → AWS S3 for s3Region. */
    s3Endpoint: e.S3_ENDPOINT || null,
    /** Both unset → the AWS SDK's default credential chain (AWS_* variables, instance roles, ...). */
    s3AccessKeyId: e.S3_ACCESS_KEY_ID || null,
    s3SecretAccessKey: e.S3_SECRET_ACCESS_KEY || null,
    /** `true` for servers without virtual-hosted buckets (most local / MinIO-like servers). */
    s3ForcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
  };
}

export type Env = ReturnType<typeof env>;

/**
 * env().allowPrivateNetwork alone (SVC_ALLOW_PRIVATE_NETWORK; unset: outside production only), for a
 * caller on every outbound request: env() reads every variable and resolves a path.
 */
export function allowPrivateNetwork(): boolean {
  const e = process.env;
  return e.SVC_ALLOW_PRIVATE_NETWORK ? e.SVC_ALLOW_PRIVATE_NETWORK === "true" : e.NODE_ENV !== "production";
}

/** A whole number ≥ 0 from the environment, or the default when unset or not a number. */
function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n >= 0 ? n : fallback;
}
