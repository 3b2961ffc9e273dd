/**
 * `svc login` / `svc logout` (docs/spec/decisions.md "Developer tools"): the device-code flow. The
 * CLI asks for a code, the operator confirms it in the dashboard (choosing project and scopes), and
 * the CLI's poll collects a new secret key once, stored by cli/credentials.ts. Like the config
 * commands, these only talk HTTP, through the SDK's login client: no database is opened.
 */
import os from "node:os";
import { createCliLoginClient, SvcApiError, type CliLoginClient } from "@svc/sdk";
import type { Command } from "./command";
import { reportingFetch } from "./sdk";
import { credentialsPath, deleteCredentials, readCredentials, serverRootOf, writeCredentials } from "./credentials";

const DEFAULT_SERVER = "http://localhost:3000";
const REQUEST_TIMEOUT_MS = 30_000;
/** Network hiccups tolerated in a row while polling before giving up. */
const MAX_POLL_FAILURES = 5;

/**
 * The server's login client. The SDK retries a 429 or 503 after its Retry-After (the server did
 * nothing); a lost connection is not retried there (these POSTs carry no Idempotency-Key): the poll
 * loop below counts those itself.
 */
function loginClient(root: string, apiKey?: string): CliLoginClient {
  return createCliLoginClient({
    serverUrl: root,
    ...(apiKey ? { apiKey } : {}),
    fetch: reportingFetch({
      where: new URL(root).origin,
      hint: `Is the server running, and is --url its address (like ${DEFAULT_SERVER})?`,
      timeoutMs: REQUEST_TIMEOUT_MS,
    }),
  });
}

/** `code: message` of a refusal (the API's error body), else its HTTP status. */
function messageOf(response: Response, error: unknown): string {
  const refusal = new SvcApiError(response, error);
  return refusal.body ? `${refusal.code}: ${refusal.message}` : refusal.message;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server to log in to: --url, else SVC_API_URL, else the stored login's, else the dev server. */
function serverOf(flags: Record<string, string | boolean | undefined>): string {
  const given = (typeof flags.url === "string" && flags.url) || process.env.SVC_API_URL;
  if (given) return serverRootOf(given);
  const stored = readCredentialsQuietly();
  return stored ? serverRootOf(stored.url) : DEFAULT_SERVER;
}

function readCredentialsQuietly() {
  try {
    return readCredentials();
  } catch {
    return null;
  }
}

export const loginCommands: Command[] = [
  {
    group: "login",
    name: "",
    summary: "[--url http://host:port]: log in through the dashboard; stores a new key for the API commands",
    options: { url: { type: "string" } },
    async run(flags, io) {
      const root = serverOf(flags);
      const login = loginClient(root);
      const started = await login.POST("/device-codes", { body: { client_host: os.hostname() } });
      if (started.response.status === 404) throw new Error(`${root} does not serve svc's CLI login (404). Is --url the svc server's address?`);
      if (!started.data) throw new Error(`Could not start the login: ${messageOf(started.response, started.error)}`);
      const { device_code: deviceCode, user_code: userCode, verification_url: verificationUrl } = started.data;
      const interval = Math.max(1, started.data.interval || 2);
      const expiresIn = started.data.expires_in || 600;
      io.out(`Open this page in a browser signed in to the svc dashboard:`);
      io.out(``);
      io.out(`  ${verificationUrl}`);
      io.out(``);
      io.out(`and check that it shows this code: ${userCode}`);
      io.out(`Waiting for you to approve it (the code expires in ${Math.round(expiresIn / 60)} minutes)...`);

      const poll = () => login.POST("/device-codes/token", { body: { device_code: deviceCode } });
      const deadline = Date.now() + expiresIn * 1000;
      let failures = 0;
      let wait = interval;
      for (;;) {
        await sleep(wait * 1000);
        wait = interval;
        let answer: Awaited<ReturnType<typeof poll>>;
        try {
          answer = await poll();
          failures = 0;
        } catch (error) {
          if (++failures >= MAX_POLL_FAILURES || Date.now() > deadline) throw error;
          continue;
        }
        const { status } = answer.response;
        if (status === 428) continue;
        if (status === 429) {
          wait = Math.max(interval, Number(answer.response.headers.get("retry-after")) || interval);
          continue;
        }
        if (status === 403) throw new Error("Login denied in the dashboard. Nothing was stored.");
        if (status === 410) throw new Error(`The code ${userCode} expired or was already used. Run \`npm run svc -- login\` again.`);
        if (!answer.data) throw new Error(`Login failed: ${messageOf(answer.response, answer.error)}`);
        const token = answer.data;
        const file = writeCredentials({ url: `${root}/api/v1`, key: token.api_key, key_id: token.key_id, project_id: token.project_id });
        io.out(`Logged in to ${root}: key ${token.display ?? token.key_id} in project ${token.project_id}, scopes ${token.scopes.join(",")}.`);
        io.out(`Saved to ${file} (readable by you only). \`npm run svc -- logout\` revokes it.`);
        return;
      }
    },
  },
  {
    group: "logout",
    name: "",
    summary: "Revoke the key `login` stored and delete it",
    options: {},
    async run(_flags, io) {
      const file = credentialsPath();
      const stored = readCredentials();
      if (!stored) {
        io.out(`Not logged in: there is no ${file}.`);
        return;
      }
      const root = serverRootOf(stored.url);
      // A server that cannot be reached keeps the file: deleting it would leave a live key nobody can find.
      const { data, error, response } = await loginClient(root, stored.key).POST("/logout");
      if (data) io.out(`Revoked key ${data.display} on ${root}.`);
      else if (response.status === 401) io.out(`The key ${stored.key_id} was already revoked or deleted on ${root}.`);
      else
        throw new Error(
          `Could not revoke the key on ${root}: ${messageOf(response, error)}. ${file} was kept; retry, or revoke ${stored.key_id} in the dashboard.`,
        );
      deleteCredentials();
      io.out(`Deleted ${file}.`);
    },
  },
];
