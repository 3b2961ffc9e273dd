import { seal, unseal } from "@/lib/crypto/secrets";
import { invalidRequest } from "@/lib/errors";
import type { ConnectorRow } from "./agent-row";

/**
 * A connector's config and its secret (decisions.md "Business agents": an API connector's secret is
 * sealed at rest and read back masked). The secret never stays in `config`: it is sealed into the
 * row's `sealed_secret` and shown as "••••" + its last 4 characters (only "••••" when it is shorter
 * than 8, so a short secret is never half shown). A write that sends the masked value back keeps the
 * stored secret, so a client can PATCH the config it read.
 */

export type ConnectorType = ConnectorRow["type"];

export const SECRET_MASK = "••••";
const API_AUTH_TYPES = ["NONE", "API_KEY", "BEARER"] as const;
type ApiAuthType = (typeof API_AUTH_TYPES)[number];

/** What a tool call of an API connector needs: the config as checked here and the unsealed secret. */
export interface ApiConnectorConfig {
  base_url: string;
  auth_type: ApiAuthType;
  auth_header: string | null;
}

const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
/** Headers the call itself sets: an auth header of that name would forge or break them. */
const RESERVED_HEADERS = /^(host|content-type|content-length|connection|transfer-encoding|user-agent|x-svc-.*|webhook-.*)$/i;

function maskSecret(plain: string): string {
  return plain.length >= 8 ? `${SECRET_MASK}${plain.slice(-4)}` : SECRET_MASK;
}

/** The wire config: the stored config with the secret, when there is one, masked. */
export function wireConfig(row: Pick<ConnectorRow, "config" | "sealedSecret">): Record<string, unknown> | null {
  if (!row.sealedSecret) return row.config ?? null;
  return { ...(row.config ?? {}), secret: maskSecret(unseal(row.sealedSecret)) };
}

export interface StoredConfig {
  config: Record<string, unknown> | null;
  sealedSecret: string | null;
}

/** The next sealed secret from what the request sent: absent or masked keeps it, null removes it. */
function nextSealedSecret(sent: unknown, current: string | null): string | null {
  if (sent === undefined) return current;
  if (sent === null) return null;
  if (typeof sent !== "string" || sent.length === 0 || sent.length > 4096) {
    throw invalidRequest("config.secret must be a string of 1 to 4096 characters, or null to remove it.", { "config.secret": ["Expected a string."] });
  }
  return sent.startsWith(SECRET_MASK) ? current : seal(sent);
}

/**
 * The config and sealed secret to store. `config` undefined (a PATCH without it) keeps the current
 * one; the (type, config) pair is checked either way, since a PATCH may change only the type.
 */
export function storedConfig(type: ConnectorType, config: Record<string, unknown> | null | undefined, current: StoredConfig | null): StoredConfig {
  let next: StoredConfig;
  if (config === undefined) {
    next = current ?? { config: null, sealedSecret: null };
  } else if (config === null) {
    next = { config: null, sealedSecret: null };
  } else {
    const { secret, ...rest } = config;
    next = { config: rest, sealedSecret: nextSealedSecret(secret, current?.sealedSecret ?? null) };
  }
  if (type === "API") next = { ...next, config: { ...checkApiConfig(next.config, next.sealedSecret !== null) } };
  return next;
}

function checkBaseUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000) return "Give an http or https URL (at most 2000 characters).";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Not a valid absolute URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Only http and https URLs are allowed.";
  if (url.username || url.password) return "No credentials in the URL: use auth_type and secret.";
  if (url.search || url.hash) return "No query or fragment: tools add the path and the arguments.";
  return null;
}

/** An API connector's config `{base_url, auth_type, auth_header?}` (the secret is apart by now); 400 with issues otherwise. */
function checkApiConfig(config: Record<string, unknown> | null, hasSecret: boolean): ApiConnectorConfig & Record<string, unknown> {
  const given = config ?? {};
  const issues: Record<string, string[]> = {};
  const urlIssue = checkBaseUrl(given.base_url);
  if (urlIssue) issues["config.base_url"] = [urlIssue];
  const authType = given.auth_type ?? "NONE";
  if (!API_AUTH_TYPES.includes(authType as ApiAuthType)) issues["config.auth_type"] = [`One of: ${API_AUTH_TYPES.join(", ")}.`];
  const header = given.auth_header ?? null;
  if (header !== null && (typeof header !== "string" || !HEADER_NAME.test(header) || RESERVED_HEADERS.test(header))) {
    issues["config.auth_header"] = ["A header name (letters, digits, '-'), not one the call sets itself (content-type, x-svc-*, webhook-*...)."];
  }
  if (authType !== "NONE" && !hasSecret) issues["config.secret"] = [`auth_type ${String(authType)} needs a secret.`];
  if (Object.keys(issues).length)
    throw invalidRequest("An API connector's config is {base_url, auth_type: NONE|API_KEY|BEARER, auth_header?, secret?}.", issues);
  return { ...given, base_url: given.base_url as string, auth_type: authType as ApiAuthType, auth_header: header as string | null };
}

/** The API config of a stored connector, for a call; null when it is not (or no longer) a valid one. */
export function apiConfigOf(row: Pick<ConnectorRow, "type" | "config" | "sealedSecret">): (ApiConnectorConfig & { secret: string | null }) | null {
  if (row.type !== "API") return null;
  try {
    const checked = checkApiConfig(row.config ?? null, row.sealedSecret !== null);
    return {
      base_url: checked.base_url,
      auth_type: checked.auth_type,
      auth_header: checked.auth_header,
      secret: row.sealedSecret ? unseal(row.sealedSecret) : null,
    };
  } catch {
    return null;
  }
}
