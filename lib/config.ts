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
    redisUrl: e.REDIS_URL || null,
    dataDir: path.resolve(/*turbopackIgnore: true*/ e.SVC_DATA_DIR || ".data"),
    bootstrapKey: e.SVC_BOOTSTRAP_KEY || null,
    encryptionKey: e.SVC_ENCRYPTION_KEY || null,
    /** Private-network webhook/media targets are allowed in dev and tests, refused in production. */
    allowPrivateNetwork: e.SVC_ALLOW_PRIVATE_NETWORK ? e.SVC_ALLOW_PRIVATE_NETWORK === "true" : !production,
    providerGraphUrl: e.PROVIDER_GRAPH_URL || null,
    publicUrl: e.SVC_PUBLIC_URL || `http://localhost:${e.PORT || 3000}`,
    sandboxParticipantCap: Number(e.SVC_SANDBOX_PARTICIPANT_CAP || 5),
  };
}

export type Env = ReturnType<typeof env>;
