/**
 * Whether the browser bundle names a public CDN. The dashboard loads nothing from a third-party host
 * (a self-hosted install may have no internet, and its CSP allows 'self' only): a CDN address in
 * `.next/static` is either dead code that can wake up (as @monaco-editor/loader's default did) or a
 * real dependency on someone else's host. scripts/check-bundle-offline.ts runs this after a build.
 */
import fs from "node:fs";
import path from "node:path";

/** Hosts that serve npm packages, scripts or fonts to browsers. */
export const CDN_HOSTS = [
  "cdn.jsdelivr.net",
  "fastly.jsdelivr.net",
  "unpkg.com",
  "cdnjs.cloudflare.com",
  "esm.sh",
  "cdn.skypack.dev",
  "ga.jspm.io",
  "fonts.googleapis.com",
  "fonts.gstatic.com",
] as const;

export interface CdnReference {
  host: string;
  /** The text around it, so the package that carries it can be found with grep. */
  excerpt: string;
}

const escaped = CDN_HOSTS.map((host) => host.replaceAll(".", "\\."));
// A whole host name only: "myunpkg.com" or "esm.shop" are other hosts.
const HOST_PATTERN = new RegExp(`(?<![\\w.-])(${escaped.join("|")})(?![\\w-])`, "g");
const EXCERPT_CHARS = 60;

export function findCdnReferences(text: string): CdnReference[] {
  const found: CdnReference[] = [];
  for (const match of text.matchAll(HOST_PATTERN)) {
    const start = Math.max(0, match.index - EXCERPT_CHARS);
    const end = Math.min(text.length, match.index + match[0].length + EXCERPT_CHARS);
    found.push({ host: match[0], excerpt: text.slice(start, end).replace(/\s+/g, " ") });
  }
  return found;
}

export interface FileCdnReference extends CdnReference {
  file: string;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every CDN address in the files under `dir`, fonts and images included (read as latin1, byte for byte). */
export function scanForCdnReferences(dir: string): FileCdnReference[] {
  return filesUnder(dir).flatMap((file) => findCdnReferences(fs.readFileSync(file, "latin1")).map((reference) => ({ file, ...reference })));
}
