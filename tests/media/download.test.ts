import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/router";
import { contentDisposition, parseRange } from "@/lib/api/media-content";
import { sha256Hex } from "@/lib/crypto/secrets";
import { media, messages } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { MEDIA_URL_TTL_MS, mediaUrlFor, signMediaToken, verifyMediaToken } from "@/lib/domain/media/tokens";
import { LocalObjectStorage, type ObjectStorage } from "@/lib/ports/storage";
import { createTestApp, type Seeded, type TestApp } from "../support/app";
import { API_VERSION, REQUEST_ID } from "../support/wire";

/**
 * Issue 5 point 3: the signed media download, through the real router (dispatch) with the runtime's
 * clock. app.call JSON-parses bodies, so `download` reads raw bytes instead.
 */
let app: TestApp;
let acme: Seeded;
let other: Seeded;
let storage: ObjectStorage;
let storageDir: string;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PUBLIC_URL = "https://svc.example";

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

async function download(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Download> {
  const parsed = new URL(url, "http://svc.test");
  const request = new Request(`http://svc.test${parsed.pathname}${parsed.search}`, { method: init.method ?? "GET", headers: init.headers });
  const response = await dispatch(request, parsed.pathname.replace(/^\/api\/v1/, ""), app.runtime);
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = (response.headers.get("content-type") ?? "").startsWith("application/json") && bytes.length ? JSON.parse(bytes.toString("utf8")) : null;
  return { status: response.status, headers: response.headers, bytes, json };
}

/** A message with one cached media file (row + stored bytes), retained for `retention` from now. */
async function cachedMedia(
  seeded: Seeded,
  options: { bytes?: Buffer; mimeType?: string | null; fileName?: string | null; retention?: number; store?: boolean; sha?: boolean } = {},
) {
  const now = app.clock.now();
  const bytes = options.bytes ?? randomBytes(1000);
  const messageId = newId("message");
  await app.db.insert(messages).values({
    id: messageId,
    projectId: seeded.projectId,
    conversationId: newId("conversation"),
    contactId: newId("contact"),
    channelId: "ch_test",
    direction: "inbound",
    type: "image",
    status: "delivered",
    body: {},
    timestamp: now,
  });
  const id = newId("media");
  const storageKey = `media/${seeded.projectId}/${id}`;
  const mimeType = options.mimeType === undefined ? "image/jpeg" : options.mimeType;
  if (options.store !== false) await storage.put(storageKey, bytes, { contentType: mimeType ?? "application/octet-stream" });
  await app.db.insert(media).values({
    id,
    projectId: seeded.projectId,
    messageId,
    provider: "platform_a",
    providerMediaId: `wamid-media-${id}`,
    type: "image",
    mimeType,
    fileName: options.fileName === undefined ? "photo.jpg" : options.fileName,
    fileSize: bytes.length,
    sha256: options.sha === false ? null : sha256Hex(bytes),
    storageKey,
    status: "available",
    attempts: 1,
    cachedAt: now,
    expiresAt: new Date(now.getTime() + (options.retention ?? DAY)),
  });
  const url = mediaUrlFor(id, now, new Date(now.getTime() + (options.retention ?? DAY)), PUBLIC_URL)!;
  return { id, bytes, url, storageKey, token: new URL(url).searchParams.get("token")! };
}

const withToken = (id: string, token: string) => `/api/v1/media/${id}/content?token=${encodeURIComponent(token)}`;

function expectHandlerHeaders(res: Download): void {
  expect(res.headers.get("svc-version")).toBe(API_VERSION);
  expect(res.headers.get("request-id")).toMatch(REQUEST_ID);
}

function expectForbidden(res: Download, reason: string): void {
  expect(res.status).toBe(403);
  expect(res.json).toMatchObject({ error: "forbidden", reason });
  expect(typeof res.json.message).toBe("string");
  expectHandlerHeaders(res);
  expect(res.headers.get("cache-control")).toBe("no-store");
}

beforeAll(async () => {
  app = await createTestApp();
  // Whole seconds, so token lives (second precision) and max-age are exact.
  app.clock.set(Math.floor(app.clock.now().getTime() / 1000) * 1000);
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-media-dl-"));
  storage = new LocalObjectStorage(storageDir);
  // The download handler reads the runtime's storage port.
  Object.assign(app.runtime.ports, { storage });
  acme = await app.seed({ orgName: "Acme", projectName: "Main" });
  other = await app.seed({ orgName: "Globex", projectName: "Other" });
});
afterAll(async () => {
  await app?.close();
  if (storageDir) fs.rmSync(storageDir, { recursive: true, force: true });
});

describe("media tokens", () => {
  const now = new Date("2026-06-18T12:00:00.000Z");
  const exp = new Date(now.getTime() + HOUR);

  it("are <expiry unix seconds>.<base64url HMAC-SHA256> and verify for their own id until expiry", () => {
    const token = signMediaToken("med_a", exp);
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(token.split(".")[0]).toBe(String(exp.getTime() / 1000));
    expect(verifyMediaToken("med_a", token, now)).toBe("valid");
    expect(verifyMediaToken("med_a", token, new Date(exp.getTime() - 1))).toBe("valid");
    expect(verifyMediaToken("med_a", token, exp)).toBe("expired");
    expect(verifyMediaToken("med_a", token, new Date(exp.getTime() + DAY))).toBe("expired");
  });

  it("are invalid for another id, another expiry, an altered MAC or any other shape", () => {
    const token = signMediaToken("med_a", exp);
    const [expiry, mac] = token.split(".") as [string, string];
    expect(verifyMediaToken("med_b", token, now)).toBe("invalid");
    expect(verifyMediaToken("med_a", `${Number(expiry) + 3600}.${mac}`, now)).toBe("invalid");
    const flipped = mac.slice(0, 10) + (mac[10] === "A" ? "B" : "A") + mac.slice(11);
    expect(verifyMediaToken("med_a", `${expiry}.${flipped}`, now)).toBe("invalid");
    // A non-canonical last base64url character decodes to the same bytes: still refused.
    const last = mac.at(-1)!;
    const sibling = "AEIMQUYcgkosw048".includes(last) ? String.fromCharCode(last.charCodeAt(0) + 1) : last;
    if (sibling !== last) expect(verifyMediaToken("med_a", `${expiry}.${mac.slice(0, -1)}${sibling}`, now)).toBe("invalid");
    for (const bad of [
      "",
      ".",
      `${expiry}.`,
      `.${mac}`,
      `${expiry}.${mac}=`,
      `${expiry}.${mac}.x`,
      `0${expiry}.${mac}`,
      `-1.${mac}`,
      `${expiry}.${mac.slice(1)}`,
    ]) {
      expect(verifyMediaToken("med_a", bad, now)).toBe("invalid");
    }
    // Expired AND tampered is reported as invalid, not expired.
    expect(verifyMediaToken("med_a", `${expiry}.${flipped}`, new Date(exp.getTime() + DAY))).toBe("invalid");
  });

  it("mediaUrlFor signs about 1 hour, capped by retention, and gives null once retention has passed", () => {
    const url = mediaUrlFor("med_a", now, new Date(now.getTime() + 7 * DAY), "https://svc.example/")!;
    expect(url).toMatch(/^https:\/\/svc\.example\/api\/v1\/media\/med_a\/content\?token=\d+\.[A-Za-z0-9_-]{43}$/);
    const token = new URL(url).searchParams.get("token")!;
    expect(Number(token.split(".")[0]) * 1000).toBe(now.getTime() + MEDIA_URL_TTL_MS);
    expect(MEDIA_URL_TTL_MS).toBe(HOUR);

    const capped = new URL(mediaUrlFor("med_a", now, new Date(now.getTime() + 10 * 60_000 + 999), PUBLIC_URL)!).searchParams.get("token")!;
    expect(Number(capped.split(".")[0]) * 1000).toBe(now.getTime() + 10 * 60_000);
    expect(verifyMediaToken("med_a", capped, new Date(now.getTime() + 10 * 60_000))).toBe("expired");

    expect(mediaUrlFor("med_a", now, now, PUBLIC_URL)).toBeNull();
    expect(mediaUrlFor("med_a", now, new Date(now.getTime() - 1), PUBLIC_URL)).toBeNull();
    expect(mediaUrlFor("med_a", now, new Date(now.getTime() + 999), PUBLIC_URL)).toBeNull(); // under a second left
  });
});

describe("GET /api/v1/media/{id}/content", () => {
  it("serves the stored bytes with no Authorization header, with the download headers", async () => {
    const file = await cachedMedia(acme);
    const res = await download(file.url);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(file.bytes)).toBe(true);
    expectHandlerHeaders(res);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="photo.jpg"');
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toBe(`"${sha256Hex(file.bytes)}"`);
    expect(res.headers.get("last-modified")).toBe(app.clock.now().toUTCString());
    expect(res.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    // No key, so no keyed headers.
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it("ignores any Authorization header: the token alone authorizes", async () => {
    const file = await cachedMedia(acme);
    for (const authorization of ["Bearer svc_live_not_a_real_key_at_all_000000", "Basic Zm9vOmJhcg==", `Bearer ${other.key}`]) {
      const res = await download(file.url, { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.bytes.equals(file.bytes)).toBe(true);
    }
  });

  it("keeps max-age within the remaining token life as the clock moves", async () => {
    const file = await cachedMedia(acme);
    app.clock.advance(45 * 60_000 + 500);
    try {
      const res = await download(file.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, max-age=899");
    } finally {
      app.clock.advance(-(45 * 60_000 + 500));
    }
  });

  it("a missing or empty token is 403 forbidden (missing_token)", async () => {
    const file = await cachedMedia(acme);
    expectForbidden(await download(`/api/v1/media/${file.id}/content`), "missing_token");
    expectForbidden(await download(`/api/v1/media/${file.id}/content?token=`), "missing_token");
  });

  it("an altered token is 403 forbidden (invalid_token): MAC, expiry, garbage", async () => {
    const file = await cachedMedia(acme);
    const [expiry, mac] = file.token.split(".") as [string, string];
    const flipped = mac.slice(0, 20) + (mac[20] === "x" ? "y" : "x") + mac.slice(21);
    for (const token of [`${expiry}.${flipped}`, `${Number(expiry) + 86_400}.${mac}`, `${Number(expiry) - 1}.${mac}`, "garbage", `${file.token}x`]) {
      const res = await download(withToken(file.id, token));
      expectForbidden(res, "invalid_token");
      expect(res.bytes.equals(file.bytes)).toBe(false);
    }
  });

  it("a token for one file never opens another, in the same or another project", async () => {
    const mine = await cachedMedia(acme);
    const sibling = await cachedMedia(acme);
    const theirs = await cachedMedia(other);
    expectForbidden(await download(withToken(sibling.id, mine.token)), "invalid_token");
    expectForbidden(await download(withToken(theirs.id, mine.token)), "invalid_token");
    expectForbidden(await download(withToken(mine.id, theirs.token)), "invalid_token");
    // Each token still opens its own file, whichever project it belongs to.
    expect((await download(theirs.url)).bytes.equals(theirs.bytes)).toBe(true);
  });

  it("an expired token is 403 forbidden (expired_token) on the runtime clock, with a message saying so", async () => {
    const file = await cachedMedia(acme);
    app.clock.advance(HOUR - 1000);
    expect((await download(file.url)).status).toBe(200);
    app.clock.advance(1000);
    const res = await download(file.url);
    expectForbidden(res, "expired_token");
    expect(res.json.message).toMatch(/expired/);
    expect(res.json.expired_at).toBe(new Date(Number(file.token.split(".")[0]) * 1000).toISOString());
    // A freshly signed URL works again while the file is retained.
    const fresh = mediaUrlFor(file.id, app.clock.now(), new Date(app.clock.now().getTime() + HOUR), PUBLIC_URL)!;
    expect((await download(fresh)).bytes.equals(file.bytes)).toBe(true);
  });

  it("an object deleted from storage is 404 not_found (a handler 404, with Svc-Version)", async () => {
    const file = await cachedMedia(acme);
    await storage.delete(file.storageKey);
    for (const init of [{}, { headers: { range: "bytes=0-9" } }, { headers: { range: "bytes=-10" } }, { method: "HEAD" }]) {
      const res = await download(file.url, init);
      expect(res.status).toBe(404);
      expectHandlerHeaders(res);
      if (init.method !== "HEAD") expect(res.json.error).toBe("not_found");
    }
  });

  it("a file marked expired or unavailable, or past its retention deadline, is 404 even with a live token", async () => {
    const expired = await cachedMedia(acme);
    await app.db.update(media).set({ status: "expired", storageKey: null }).where(eq(media.id, expired.id));
    let res = await download(expired.url);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: "not_found" });
    expect(res.json.message).toMatch(/no longer retained/);

    const failed = await cachedMedia(acme, { store: false });
    await app.db.update(media).set({ status: "unavailable", errorCode: "download_failed", storageKey: null }).where(eq(media.id, failed.id));
    res = await download(failed.url);
    expect(res.status).toBe(404);
    expect(res.json.message).toMatch(/could not be cached/);

    // Retention passed but the expiry job has not run yet: the bytes are still stored, yet not served.
    const lapsed = await cachedMedia(acme, { retention: 30 * 60_000 });
    const longToken = signMediaToken(lapsed.id, new Date(app.clock.now().getTime() + HOUR));
    app.clock.advance(31 * 60_000);
    try {
      res = await download(withToken(lapsed.id, longToken));
      expect(res.status).toBe(404);
      expect(res.json.message).toMatch(/no longer retained/);
    } finally {
      app.clock.advance(-31 * 60_000);
    }
  });

  it("a genuine token for an id that does not exist is 404; a forged one for it is 403", async () => {
    const ghost = newId("media");
    const res = await download(withToken(ghost, signMediaToken(ghost, new Date(app.clock.now().getTime() + HOUR))));
    expect(res.status).toBe(404);
    expect(res.json.error).toBe("not_found");
    expectForbidden(await download(withToken(ghost, "1999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")), "invalid_token");
  });

  it("HEAD answers the headers and Content-Length without a body", async () => {
    const file = await cachedMedia(acme);
    const res = await download(file.url, { method: "HEAD", headers: { range: "bytes=0-9" } });
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get("content-length")).toBe("1000");
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expectHandlerHeaders(res);
  });

  it("If-None-Match with the ETag is 304 without a body", async () => {
    const file = await cachedMedia(acme);
    const etag = `"${sha256Hex(file.bytes)}"`;
    const res = await download(file.url, { headers: { "if-none-match": `"other", ${etag}` } });
    expect(res.status).toBe(304);
    expect(res.bytes.length).toBe(0);
    expect(res.headers.get("etag")).toBe(etag);
    expectHandlerHeaders(res);
    expect((await download(file.url, { headers: { "if-none-match": '"other"' } })).status).toBe(200);
  });

  it("without a known sha256 there is no ETag and If-None-Match never hits", async () => {
    const file = await cachedMedia(acme, { sha: false });
    const res = await download(file.url, { headers: { "if-none-match": "*" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.bytes.equals(file.bytes)).toBe(true);
  });

  it("other methods on the path are 405 without Svc-Version", async () => {
    const file = await cachedMedia(acme);
    const res = await download(file.url, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("svc-version")).toBeNull();
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  it("an unsupported Svc-Version is 400 invalid_api_version, like every handler", async () => {
    const file = await cachedMedia(acme);
    const res = await download(file.url, { headers: { "svc-version": "2020-01-01" } });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_api_version");
    expect((await download(file.url, { headers: { "svc-version": API_VERSION } })).status).toBe(200);
  });
});

describe("Range requests", () => {
  let file: Awaited<ReturnType<typeof cachedMedia>>;
  beforeAll(async () => {
    file = await cachedMedia(acme, { bytes: randomBytes(1000) });
  });

  it.each([
    ["bytes=0-9", 0, 9],
    ["bytes=100-199", 100, 199],
    ["bytes=999-999", 999, 999],
    ["bytes=990-5000", 990, 999],
    ["bytes=900-", 900, 999],
    ["bytes=0-", 0, 999],
    ["bytes=-10", 990, 999],
    ["bytes=-5000", 0, 999],
    ["BYTES = 5-6", 5, 6],
    ["bytes=5-6,", 5, 6],
  ])("%s → 206 with exactly bytes %i-%i", async (range, start, end) => {
    const res = await download(file.url, { headers: { range } });
    expect(res.status).toBe(206);
    expect(res.bytes.equals(file.bytes.subarray(start, end + 1))).toBe(true);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expectHandlerHeaders(res);
  });

  it.each(["bytes=1000-", "bytes=1000-1001", "bytes=5000-6000", "bytes=-0", "bytes=99999999999999999999999-"])(
    "%s → 416 with Content-Range bytes */1000",
    async (range) => {
      const res = await download(file.url, { headers: { range } });
      expect(res.status).toBe(416);
      expect(res.headers.get("content-range")).toBe("bytes */1000");
      expect(res.json.error).toBe("range_not_satisfiable");
      expectHandlerHeaders(res);
    },
  );

  it.each(["bytes=0-1,5-6", "bytes=9-2", "items=0-1", "bytes=abc", "bytes=--1", "bytes=1-2-3", "bytes="])("%s → the whole file (200)", async (range) => {
    const res = await download(file.url, { headers: { range } });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(file.bytes)).toBe(true);
    expect(res.headers.get("content-range")).toBeNull();
  });

  it("If-Range: the range applies while the ETag or date matches, else the whole file", async () => {
    const etag = `"${sha256Hex(file.bytes)}"`;
    let res = await download(file.url, { headers: { range: "bytes=0-3", "if-range": etag } });
    expect(res.status).toBe(206);
    expect(res.bytes.equals(file.bytes.subarray(0, 4))).toBe(true);
    res = await download(file.url, { headers: { range: "bytes=0-3", "if-range": '"stale"' } });
    expect(res.status).toBe(200);
    expect(res.bytes.equals(file.bytes)).toBe(true);
    res = await download(file.url, { headers: { range: "bytes=0-3", "if-range": `W/${etag}` } });
    expect(res.status).toBe(200);
    const lastModified = (await download(file.url, { method: "HEAD" })).headers.get("last-modified")!;
    expect((await download(file.url, { headers: { range: "bytes=0-3", "if-range": lastModified } })).status).toBe(206);
  });

  it("an empty file: the whole file is 200 with length 0, any range is 416 bytes */0", async () => {
    const empty = await cachedMedia(acme, { bytes: Buffer.alloc(0), mimeType: "text/plain", fileName: "empty.txt" });
    const whole = await download(empty.url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.length).toBe(0);
    expect(whole.headers.get("content-length")).toBe("0");
    for (const range of ["bytes=0-", "bytes=-1"]) {
      const res = await download(empty.url, { headers: { range } });
      expect(res.status).toBe(416);
      expect(res.headers.get("content-range")).toBe("bytes */0");
    }
  });

  it("parseRange keeps one range and ignores the rest", () => {
    expect(parseRange(null)).toEqual({ kind: "whole" });
    expect(parseRange("bytes=1-2")).toEqual({ kind: "from", start: 1, end: 2 });
    expect(parseRange("bytes=3-")).toEqual({ kind: "from", start: 3 });
    expect(parseRange("bytes=-4")).toEqual({ kind: "suffix", length: 4 });
    expect(parseRange("bytes=0-1, 3-4")).toEqual({ kind: "whole" });
    expect(parseRange("bytes=5-1")).toEqual({ kind: "whole" });
  });
});

describe("Content-Type and Content-Disposition", () => {
  it("encodes non-ASCII names per RFC 6266 / RFC 5987 with an ASCII fallback", async () => {
    const file = await cachedMedia(acme, { mimeType: "image/png", fileName: "Résumé 日本 (1)'s.png" });
    const res = await download(file.url);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="R_sum_ __ (1)'s.png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC%20%281%29%27s.png`,
    );
  });

  it("quotes, backslashes, percent signs, slashes and control characters never reach the header as such", () => {
    expect(contentDisposition("inline", 'a"b\\c%d.jpg', "x")).toBe(`inline; filename="a_b_c_d.jpg"; filename*=UTF-8''a%22b_c%25d.jpg`);
    expect(contentDisposition("inline", "../../etc/passwd", "x")).toBe('inline; filename=".._.._etc_passwd"');
    expect(contentDisposition("inline", "a\r\nSet-Cookie: x=1", "x")).toBe('inline; filename="a__Set-Cookie: x=1"');
    expect(contentDisposition("attachment", "..", "med_1.pdf")).toBe('attachment; filename="med_1.pdf"');
    expect(contentDisposition("inline", "x".repeat(300), "f")).toBe(`inline; filename="${"x".repeat(240)}"`);
  });

  it("without a file name the media id and an extension for the type are used", async () => {
    const file = await cachedMedia(acme, { fileName: null });
    const res = await download(file.url);
    expect(res.headers.get("content-disposition")).toBe(`inline; filename="${file.id}.jpg"`);
  });

  it("documents and active types (PDF, SVG, HTML) are attachments; audio and video are inline", async () => {
    const cases: [string, string][] = [
      ["application/pdf", "attachment"],
      ["image/svg+xml", "attachment"],
      ["text/html", "attachment"],
      ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", "attachment"],
      ["audio/ogg; codecs=opus", "inline"],
      ["video/mp4", "inline"],
      ["image/webp", "inline"],
    ];
    for (const [mimeType, disposition] of cases) {
      const file = await cachedMedia(acme, { mimeType, fileName: "f" });
      const res = await download(file.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(mimeType);
      expect(res.headers.get("content-disposition")).toBe(`${disposition}; filename="f"`);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    }
  });

  it("falls back to the stored content type when the row has none", async () => {
    const file = await cachedMedia(acme, { mimeType: null, fileName: null });
    const res = await download(file.url);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${file.id}"`);
  });
});
