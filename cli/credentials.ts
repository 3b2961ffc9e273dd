/**
 * Where `svc login` keeps its key: $XDG_CONFIG_HOME/svc/credentials.json (else ~/.config/svc/...),
 * readable by the user alone (file 0600, folder 0700). Later API-client commands fall back to it
 * when neither --key nor SVC_API_KEY is given (cli/config/client.ts targetOf).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface StoredCredentials {
  /** The API base the key belongs to, like http://localhost:3000/api/v1. */
  url: string;
  key: string;
  key_id: string;
  project_id: string | null;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "svc", "credentials.json");
}

/** The stored credentials, or null when there are none. A file that is not ours is an error, not "logged out". */
export function readCredentials(env: NodeJS.ProcessEnv = process.env): StoredCredentials | null {
  const file = credentialsPath(env);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const value = parsed as Partial<StoredCredentials> | null;
  if (!value || typeof value.url !== "string" || typeof value.key !== "string" || typeof value.key_id !== "string") {
    throw new Error(`${file} is not a credentials file of svc login. Delete it and run: npm run svc -- login`);
  }
  return { url: value.url, key: value.key, key_id: value.key_id, project_id: typeof value.project_id === "string" ? value.project_id : null };
}

/** Written to a private temp file first and renamed over the old one, so no reader ever sees half a file or a looser mode. */
export function writeCredentials(credentials: StoredCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsPath(env);
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An existing folder keeps its mode under mkdir: tighten it.
  fs.chmodSync(dir, 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  // "wx": created here with 0600, never an older file someone else may have opened.
  fs.writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  fs.renameSync(temp, file);
  return file;
}

/** True when a file was there to delete. */
export function deleteCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    fs.unlinkSync(credentialsPath(env));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** `http://host:3000/api/v1/` and `http://host:3000` both name the server `http://host:3000`. */
export function serverRootOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--url '${url}' is not an http(s) URL such as http://localhost:3000.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`--url '${url}' is not an http(s) URL such as http://localhost:3000.`);
  const pathname = parsed.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${parsed.origin}${pathname}`;
}
