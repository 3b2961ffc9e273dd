import { errorKind } from "@/lib/error-kind";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { ByteRange, ObjectStorage, StoredObject, StoredObjectInfo } from "./index";

/**
 * Local-folder adapter of the storage port (the offline default), plus the rules both adapters share
 * (keys, content types, ranges); index.ts re-exports them. They live here, not in index.ts, so that
 * index.ts → local.ts ← s3.ts has no import cycle.
 *
 * Layout under the root folder:
 *   objects/<key>   the bytes
 *   meta/<key>      JSON sidecar {"contentType": "..."} (a mirror tree, so it adds no key conflicts)
 *   tmp/            writes in progress; each file is renamed into place when complete
 * Every write goes to tmp/ first, is fsynced, then rename()d over the target, so a reader sees the old
 * object or the new one, never a partial file. The sidecar is written before the bytes, so a new
 * object is never visible without its content type. Readers open the file first and take its size
 * from that handle, so bytes and size always belong to the same version.
 * Limitation of a file system (not of S3): a key cannot also be the folder of another key (`a` and
 * `a/b`); such a put throws. Emptied folders are left in place.
 */

export const DEFAULT_CONTENT_TYPE = "application/octet-stream";
export const MAX_KEY_LENGTH = 1024;
/** A file name's limit on common file systems; applied on S3 too, so every key works on both. */
export const MAX_SEGMENT_LENGTH = 255;
const KEY_CHARS = /^[A-Za-z0-9/_.-]+$/;
const CONTENT_TYPE = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

export class InvalidStorageKey extends errorKind("InvalidStorageKey") {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key ${JSON.stringify(key)}: ${reason}`);
    this.name = "InvalidStorageKey";
  }
}

/** A range that starts at or past the end of the object (any range of an empty one): HTTP 416. */
export class StorageRangeError extends errorKind("StorageRangeError") {
  constructor(
    /** Size of the whole object, for `Content-Range: bytes * /size`. */
    readonly size: number,
    readonly range: ByteRange,
  ) {
    super(`Range ${range.start}-${range.end ?? ""} is not satisfiable for an object of ${size} bytes`);
    this.name = "StorageRangeError";
  }
}

/**
 * 1-1024 characters of [A-Za-z0-9/_.-]; slash-separated segments of at most 255 characters, none
 * empty, `.` or `..`; so no absolute path, no leading or trailing slash, nothing that could leave the
 * storage folder.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new InvalidStorageKey(String(key), "empty");
  if (key.length > MAX_KEY_LENGTH) throw new InvalidStorageKey(key, `longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_CHARS.test(key)) throw new InvalidStorageKey(key, "only A-Z a-z 0-9 / _ . - are allowed");
  for (const segment of key.split("/")) {
    if (segment === "") throw new InvalidStorageKey(key, "empty path segment (leading, trailing or double slash)");
    if (segment === "." || segment === "..") throw new InvalidStorageKey(key, `"${segment}" segment`);
    if (segment.length > MAX_SEGMENT_LENGTH) throw new InvalidStorageKey(key, `segment longer than ${MAX_SEGMENT_LENGTH} characters`);
  }
}

/** Printable ASCII, no line breaks (it ends up in a Content-Type header), at most 255 characters. */
export function assertValidContentType(contentType: string): void {
  if (typeof contentType !== "string" || !CONTENT_TYPE.test(contentType)) {
    throw new TypeError(`Invalid content type ${JSON.stringify(contentType)}`);
  }
}

/** A malformed range (negative, fractional, end before start) is the caller's bug: RangeError. */
export function assertRangeShape(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`Invalid range start ${start}`);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) throw new RangeError(`Invalid range end ${end}`);
}

/** The inclusive bytes a range selects in an object of `size` bytes (end clamped to the last byte). */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  assertRangeShape(range);
  if (range.start >= size) throw new StorageRangeError(size, range);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** Reads a body (as returned by get) to the end. Meant for small objects and tests. */
export async function readBody(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function errorCode(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err ? String((err as { code: unknown }).code) : undefined;
}

/** ENOENT, or ENOTDIR when part of the path is a file: either way there is no such object. */
function isMissing(err: unknown): boolean {
  const code = errorCode(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

export class LocalObjectStorage implements ObjectStorage {
  readonly kind = "local" as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathIn(tree: "objects" | "meta", key: string): string {
    assertValidKey(key);
    const base = path.join(this.root, tree);
    const full = path.join(base, ...key.split("/"));
    // Defence in depth: the key rules above already make this impossible.
    if (!full.startsWith(base + path.sep)) throw new InvalidStorageKey(key, "outside the storage folder");
    return full;
  }

  async put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    const file = this.pathIn("objects", key);
    const metaFile = this.pathIn("meta", key);
    assertValidContentType(meta.contentType);
    if (!Buffer.isBuffer(body)) throw new TypeError("body must be a Buffer");
    try {
      await this.writeAtomic(metaFile, Buffer.from(JSON.stringify({ contentType: meta.contentType })));
      await this.writeAtomic(file, body);
    } catch (err) {
      const code = errorCode(err);
      if (code === "ENOTDIR" || code === "EEXIST" || code === "EISDIR" || code === "ENOTEMPTY") {
        throw new Error(`Storage key "${key}" conflicts with an existing key: in local storage a key cannot also be a folder of other keys`, { cause: err });
      }
      throw err;
    }
  }

  private async writeAtomic(target: string, data: Buffer): Promise<void> {
    const tmpDir = path.join(this.root, "tmp");
    await fs.mkdir(tmpDir, { recursive: true });
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(tmpDir, `${randomUUID()}.part`);
    try {
      const handle = await fs.open(tmp, "wx");
      try {
        await handle.writeFile(data);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  private async contentType(key: string): Promise<string> {
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(this.pathIn("meta", key), "utf8"));
      const value = typeof parsed === "object" && parsed !== null ? (parsed as { contentType?: unknown }).contentType : undefined;
      return typeof value === "string" && value ? value : DEFAULT_CONTENT_TYPE;
    } catch (err) {
      if (isMissing(err) || err instanceof SyntaxError) return DEFAULT_CONTENT_TYPE;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const file = this.pathIn("objects", key);
    if (range) assertRangeShape(range);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, "r");
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null; // a folder of other keys, not an object
      }
      const size = info.size;
      const contentType = await this.contentType(key);
      const served = range ? resolveRange(range, size) : null;
      const length = served ? served.end - served.start + 1 : size;
      const body =
        size === 0
          ? handle.createReadStream({ start: 0, autoClose: true })
          : handle.createReadStream({ start: served?.start ?? 0, end: served?.end ?? size - 1, autoClose: true });
      return { body, size, contentType, range: served, length };
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    const file = this.pathIn("objects", key);
    try {
      const info = await fs.stat(file);
      if (!info.isFile()) return null;
      return { size: info.size, contentType: await this.contentType(key) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // Bytes first: once they are gone the object is gone for readers, whatever happens to the sidecar.
    for (const file of [this.pathIn("objects", key), this.pathIn("meta", key)]) {
      try {
        await fs.unlink(file);
      } catch (err) {
        if (!(isMissing(err) || errorCode(err) === "EISDIR")) throw err;
      }
    }
  }
}
