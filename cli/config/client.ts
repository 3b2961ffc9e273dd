/**
 * The config commands are a client of the public API (docs/spec/decisions.md "Config-as-code")
 * through @svc/sdk: they never open the database, so they work against any svc server the key can
 * reach. `svc listen` finds its server and key here too.
 */
import { createSvcClient, type SvcClient } from "@svc/sdk";
import { readCredentials } from "../credentials";
import { reportingFetch } from "../sdk";

const DEFAULT_API_URL = "http://localhost:3000/api/v1";
const TIMEOUT_MS = 60_000;

export interface ApiTarget {
  url: string;
  key: string;
}

export type Flags = Record<string, string | boolean | undefined>;

/**
 * --url / --key, else SVC_API_URL / SVC_API_KEY, else what `svc login` stored (cli/credentials.ts);
 * the URL defaults to the dev server (`npm run dev`). The stored key is only sent to the server it
 * was made for: with another URL given, it is not used.
 */
export function targetOf(flags: Flags, env: NodeJS.ProcessEnv = process.env): ApiTarget {
  const given = (typeof flags.url === "string" && flags.url) || env.SVC_API_URL || null;
  const explicitKey = (typeof flags.key === "string" && flags.key) || env.SVC_API_KEY;
  // Read only when needed: a broken file must not get in the way of an explicit --url and --key.
  const stored = given && explicitKey ? null : readCredentials(env);
  const url = given || stored?.url || DEFAULT_API_URL;
  const storedKey = stored && sameApi(stored.url, url) ? stored.key : undefined;
  const key = explicitKey || storedKey;
  if (!key) {
    throw new Error(
      "No API key: run `npm run svc -- login`, pass --key svc_live_... or set SVC_API_KEY (a key with config:read; config:write to apply)." +
        (stored && !storedKey ? ` The stored login is for ${stored.url}, not ${url}.` : ""),
    );
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    throw new Error(`--url '${url}' is not an http(s) URL such as ${DEFAULT_API_URL}.`);
  }
  return { url: url.replace(/\/+$/, ""), key };
}

function sameApi(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/**
 * The SDK client of a target. An attempt fails after 60 s; the SDK retries 429 and 503 after their
 * Retry-After, and a lost answer when repeating is safe (a GET, or a POST with the Idempotency-Key it
 * adds: a repeated `config apply` gets its first answer back instead of applying twice).
 */
export function apiClient(target: ApiTarget): SvcClient {
  return createSvcClient({
    apiKey: target.key,
    baseUrl: target.url,
    fetch: reportingFetch({
      where: target.url,
      hint: `Is the server running, and is --url (or SVC_API_URL) its API base, like ${DEFAULT_API_URL}?`,
      timeoutMs: TIMEOUT_MS,
    }),
  });
}
