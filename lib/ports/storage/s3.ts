import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from "@aws-sdk/client-s3";
import type { ByteRange, ObjectStorage, StoredObject, StoredObjectInfo } from "./index";
import { DEFAULT_CONTENT_TYPE, StorageRangeError, assertRangeShape, assertValidContentType, assertValidKey } from "./local";

/**
 * S3-compatible adapter of the storage port, on the official AWS SDK v3: AWS S3 itself, or any
 * S3-compatible server through `endpoint` (MinIO, Ceph, R2, s3rver in tests, ...).
 *  - put → PutObject (Content-Type; Content-MD5 on non-AWS endpoints, see below)
 *  - get → GetObject, with `Range: bytes=start-end` when a range is asked for; total size from
 *    Content-Range (ranged) or Content-Length (whole)
 *  - stat → HeadObject; delete → DeleteObject (S3 deletes are idempotent already)
 *  - NoSuchKey / NotFound / other 404 → null (a missing bucket answers HeadObject with a bare 404 too,
 *    so stat() cannot tell it from a missing key; get() and put() do report NoSuchBucket)
 *  - InvalidRange (416) → StorageRangeError with the object's size
 *  - the credentials need s3:ListBucket besides Get/Put/DeleteObject: without it AWS answers a
 *    missing key with 403 AccessDenied, which is (rightly) an error here, not null
 * With an explicit endpoint the SDK's newer default request/response checksums (CRC32 headers,
 * aws-chunked trailers) are switched to "when required", since not every S3-compatible server
 * accepts them; Content-MD5, which every one of them checks, protects the upload instead.
 */
export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** S3-compatible server base URL; null/undefined → AWS S3 for `region`. */
  endpoint?: string | null;
  /** Path-style URLs (`endpoint/bucket/key`), needed by most local and MinIO-like servers. */
  forcePathStyle?: boolean;
  /** null/undefined → the SDK's default credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | null;
}

function status(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const meta = (err as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return meta?.httpStatusCode;
}

function errorName(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "name" in err ? String((err as { name: unknown }).name) : undefined;
}

function isMissingObject(err: unknown): boolean {
  const name = errorName(err);
  if (name === "NoSuchKey" || name === "NotFound") return true;
  return status(err) === 404 && name !== "NoSuchBucket";
}

function isInvalidRange(err: unknown): boolean {
  return errorName(err) === "InvalidRange" || status(err) === 416;
}

export class S3ObjectStorage implements ObjectStorage {
  readonly kind = "s3" as const;
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly sendMd5: boolean;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.sendMd5 = Boolean(options.endpoint);
    const config: S3ClientConfig = {
      region: options.region,
      forcePathStyle: options.forcePathStyle ?? false,
      maxAttempts: 3,
      // Fail fast on an unreachable server; a stalled transfer is cut after 30 s without data.
      requestHandler: { connectionTimeout: 5_000, socketTimeout: 30_000 },
    };
    if (options.endpoint) {
      config.endpoint = options.endpoint;
      config.requestChecksumCalculation = "WHEN_REQUIRED";
      config.responseChecksumValidation = "WHEN_REQUIRED";
    }
    if (options.credentials) config.credentials = options.credentials;
    this.client = new S3Client(config);
  }

  async put(key: string, body: Buffer, meta: { contentType: string }): Promise<void> {
    assertValidKey(key);
    assertValidContentType(meta.contentType);
    if (!Buffer.isBuffer(body)) throw new TypeError("body must be a Buffer");
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ContentType: meta.contentType,
        ...(this.sendMd5 ? { ContentMD5: createHash("md5").update(body).digest("base64") } : {}),
      }),
    );
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    assertValidKey(key);
    if (range) assertRangeShape(range);
    let out;
    try {
      out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ""}` } : {}),
        }),
      );
    } catch (err) {
      if (isMissingObject(err)) return null;
      if (range && isInvalidRange(err)) {
        const reported = Number((err as { ActualObjectSize?: unknown }).ActualObjectSize);
        const size = Number.isSafeInteger(reported) ? reported : (await this.stat(key))?.size;
        if (size === undefined) return null;
        throw new StorageRangeError(size, range);
      }
      throw err;
    }
    const body: unknown = out.Body;
    if (!(body instanceof Readable)) throw new Error("S3 GetObject returned no Node stream body");
    const contentType = out.ContentType || DEFAULT_CONTENT_TYPE;
    if (range) {
      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(out.ContentRange ?? "");
      if (!match) {
        body.destroy();
        throw new Error(`S3 server ignored the Range header for "${key}" (no Content-Range in the answer)`);
      }
      const start = Number(match[1]);
      const end = Number(match[2]);
      return { body, size: Number(match[3]), contentType, range: { start, end }, length: end - start + 1 };
    }
    const size = out.ContentLength ?? 0;
    return { body, size, contentType, range: null, length: size };
  }

  async stat(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType || DEFAULT_CONTENT_TYPE };
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (!isMissingObject(err)) throw err;
    }
  }

  /** Releases the client's sockets (tests, CLI); the app's long-lived instance never needs it. */
  close(): void {
    this.client.destroy();
  }
}
