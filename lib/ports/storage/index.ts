import path from "node:path";
import type { Readable } from "node:stream";
import { env, type Env } from "@/lib/config";
import { LocalObjectStorage } from "./local";
import { S3ObjectStorage } from "./s3";

/**
 * Storage port: where cached media bytes live. Offline default: a folder under `${dataDir}/media`
 * (local.ts). With S3_BUCKET set: any S3-compatible store through the official AWS SDK (s3.ts).
 * Both adapters behave the same; tests/storage runs one contract suite against each.
 *
 * Keys: 1-1024 characters of [A-Za-z0-9/_.-], slash-separated segments of at most 255 characters,
 * no empty, `.` or `..` segment, no leading or trailing slash (see assertValidKey). Both adapters enforce the same rule, so
 * a key that works locally works on S3 and cannot escape the local folder.
 *
 * Ranges follow HTTP `Range: bytes=start-end`: `end` is INCLUSIVE and optional (open-ended), an `end`
 * past the last byte is clamped to it, and a `start` at or past the end of the object (or any range
 * on an empty object) throws StorageRangeError carrying the object's size, for a 416 with
 * `Content-Range: bytes * /size`. Suffix ranges (`bytes=-N`) are not part of the port: resolve them
 * with stat() first (start = size - N), so every backend sees an explicit start.
 */
export interface ByteRange {
  /** First byte, 0-based. */
  start: number;
  /** Last byte, INCLUSIVE; omitted → to the end of the object. */
  end?: number;
}

export interface StoredObjectInfo {
  /** Size of the whole object in bytes. */
  size: number;
  contentType: string;
}

export interface StoredObject extends StoredObjectInfo {
  /**
   * The bytes asked for (the whole object, or just the range). Always a Node Readable (so also a
   * NodeJS.ReadableStream): pipe it, `Readable.toWeb(body)` it into a Response, or readBody() it.
   * It holds a file handle or a connection until consumed: read it to the end or destroy() it.
   */
  body: Readable;
  /** The bytes served, inclusive, when a range was asked for; null for the whole object. */
  range: { start: number; end: number } | null;
  /** Number of bytes in body (end - start + 1 for a range, size otherwise): the Content-Length. */
  length: number;
}

export interface ObjectStorage {
  readonly kind: "local" | "s3";
  /** Stores (or replaces) the object whole; readers never see a partial write. */
  put(key: string, body: Buffer, meta: { contentType: string }): Promise<void>;
  /** null when there is no such object. Throws StorageRangeError for an unsatisfiable range. */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** null when there is no such object. */
  stat(key: string): Promise<StoredObjectInfo | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
}

export { InvalidStorageKey, LocalObjectStorage, StorageRangeError, readBody } from "./local";
export { S3ObjectStorage } from "./s3";

export type StorageEnv = Pick<Env, "dataDir" | "s3Bucket" | "s3Region" | "s3Endpoint" | "s3AccessKeyId" | "s3SecretAccessKey" | "s3ForcePathStyle">;

/** S3 when S3_BUCKET is set, else the local folder `${dataDir}/media`. */
export function createStorage(settings: StorageEnv = env()): ObjectStorage {
  if (settings.s3Bucket) {
    if (!settings.s3AccessKeyId !== !settings.s3SecretAccessKey) {
      throw new Error("Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default credential chain).");
    }
    return new S3ObjectStorage({
      bucket: settings.s3Bucket,
      region: settings.s3Region,
      endpoint: settings.s3Endpoint,
      forcePathStyle: settings.s3ForcePathStyle,
      credentials:
        settings.s3AccessKeyId && settings.s3SecretAccessKey ? { accessKeyId: settings.s3AccessKeyId, secretAccessKey: settings.s3SecretAccessKey } : null,
    });
  }
  return new LocalObjectStorage(path.join(settings.dataDir, "media"));
}
