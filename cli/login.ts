/**
 * `svc login` / `svc logout` (docs/spec/decisions.md "Developer tools"): the device-code flow. The
 * CLI asks for a code, the operator confirms it in the dashboard (choosing project and scopes), and
 * the CLI's poll collects a new secret key once, stored by cli/credentials.ts. Like the config
 * commands, these only talk HTTP: no database is opened.
 */
import os from "node:os";
import type { Command } from "./commands";
import { objectOf, requestJson } from "./http";
import { credentialsPath, deleteCredentials, readCredentials, serverRootOf, writeCredentials } from "./credentials";

const DEFAULT_SERVER = "http://localhost:3000";
const REQUEST_TIMEOUT_MS = 30_000;
/** Network hiccups tolerated in a row while polling before giving up. */
const MAX_POLL_FAILURES = 5;

type Answer = { status: number; body: Record<string, unknown> | null; headers: Headers };

async function post(url: string, body: unknown, key?: string): Promise<Answer> {
  const answer = await requestJson(url, {
    method: "POST",
    key,
    body,
    timeoutMs: REQUEST_TIMEOUT_MS,
    where: new URL(url).origin,
    hint: `Is the server running, and is --url its address (like ${DEFAULT_SERVER})?`,
  });
  return { status: answer.status, body: objectOf(answer.json), headers: answer.headers };
}

function messageOf(answer: Answer): string {
  const message = typeof answer.body?.message === "string" ? answer.body.message : `HTTP ${answer.status}`;
  return typeof answer.body?.error === "string" ? `${answer.body.error}: ${message}` : message;
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
      const started = await post(`${root}/api/cli/device-codes`, { client_host: os.hostname() });
      if (started.status === 404) throw new Error(`${root} does not serve svc's CLI login (404). Is --url the svc server's address?`);
      if (started.status !== 200 || !started.body) throw new Error(`Could not start the login: ${messageOf(started)}`);
      const { device_code: deviceCode, user_code: userCode, verification_url: verificationUrl } = started.body as Record<string, string>;
      const interval = Math.max(1, Number(started.body.interval) || 2);
      const expiresIn = Number(started.body.expires_in) || 600;
      io.out(`Open this page in a browser signed in to the svc dashboard:`);
      io.out(``);
      io.out(`  ${verificationUrl}`);
      io.out(``);
      io.out(`and check that it shows this code: ${userCode}`);
      io.out(`Waiting for you to approve it (the code expires in ${Math.round(expiresIn / 60)} minutes)...`);

      const deadline = Date.now() + expiresIn * 1000;
      let failures = 0;
      let wait = interval;
      for (;;) {
        await sleep(wait * 1000);
        wait = interval;
        let answer: Answer;
        try {
          answer = await post(`${root}/api/cli/device-codes/token`, { device_code: deviceCode });
          failures = 0;
        } catch (error) {
          if (++failures >= MAX_POLL_FAILURES || Date.now() > deadline) throw error;
          continue;
        }
        if (answer.status === 428) continue;
        if (answer.status === 429) {
          wait = Math.max(interval, Number(answer.headers.get("retry-after")) || interval);
          continue;
        }
        if (answer.status === 403) throw new Error("Login denied in the dashboard. Nothing was stored.");
        if (answer.status === 410) throw new Error(`The code ${userCode} expired or was already used. Run \`npm run svc -- login\` again.`);
        if (answer.status !== 200 || !answer.body) throw new Error(`Login failed: ${messageOf(answer)}`);
        const token = answer.body as { api_key: string; key_id: string; display: string | null; project_id: string | null; scopes: string[] };
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
      const answer = await post(`${root}/api/cli/logout`, {}, stored.key);
      if (answer.status === 200) io.out(`Revoked key ${typeof answer.body?.display === "string" ? answer.body.display : stored.key_id} on ${root}.`);
      else if (answer.status === 401) io.out(`The key ${stored.key_id} was already revoked or deleted on ${root}.`);
      else throw new Error(`Could not revoke the key on ${root}: ${messageOf(answer)}. ${file} was kept; retry, or revoke ${stored.key_id} in the dashboard.`);
      deleteCredentials();
      io.out(`Deleted ${file}.`);
    },
  },
];
