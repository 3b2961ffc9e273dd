import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3ObjectStorage, createStorage, readBody, type StorageEnv } from "@/lib/ports/storage";
import { storageContract } from "./contract";

const BUCKET = "svc-media-test";
// s3rver's only account. It rejects unknown access key ids, but (3.7.1) does not verify SigV4
// signatures themselves, so a wrong secret would go unnoticed here: the bad-credentials test uses an
// unknown key id.
const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";

let dir: string;
let server: S3rver;
let endpoint: string;
let storage: S3ObjectStorage;

function s3Env(overrides: Partial<StorageEnv> = {}): StorageEnv {
  return {
    dataDir: dir,
    s3Bucket: BUCKET,
    s3Region: "us-east-1",
    s3Endpoint: endpoint,
    s3AccessKeyId: ACCESS_KEY,
    s3SecretAccessKey: SECRET_KEY,
    s3ForcePathStyle: true,
    ...overrides,
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-storage-s3-"));
  server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(dir, "s3rver"),
    resetOnClose: true,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  // Through createStorage, so the S3_* settings → client wiring is what the contract exercises.
  const created = createStorage(s3Env());
  expect(created).toBeInstanceOf(S3ObjectStorage);
  storage = created as S3ObjectStorage;
});

afterAll(async () => {
  storage?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

storageContract("s3", () => storage);

describe("S3 storage specifics", () => {
  it("createStorage() picks S3 from the S3_* environment variables", async () => {
    const names = ["S3_BUCKET", "S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    Object.assign(process.env, {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: "true",
    });
    delete process.env.S3_REGION; // default us-east-1
    const fromEnv = createStorage() as S3ObjectStorage;
    try {
      expect(fromEnv.kind).toBe("s3");
      expect(fromEnv.bucket).toBe(BUCKET);
      await fromEnv.put("env/check.txt", Buffer.from("via env"), { contentType: "text/plain" });
      expect((await readBody((await storage.get("env/check.txt"))!.body)).toString()).toBe("via env");
    } finally {
      fromEnv.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("refuses half a credential pair instead of silently using another identity", () => {
    expect(() => createStorage(s3Env({ s3SecretAccessKey: null }))).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
  });

  it("stores real S3 objects: the content type is the object's Content-Type", async () => {
    await storage.put("raw/look.webp", Buffer.from("RIFF....WEBP"), { contentType: "image/webp" });
    const raw = new S3Client({
      region: "us-east-1",
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    });
    try {
      const head = await raw.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "raw/look.webp" }));
      expect(head.ContentType).toBe("image/webp");
      expect(head.ContentLength).toBe(12);
    } finally {
      raw.destroy();
    }
  });

  it("reports a missing bucket on get and put instead of answering null", async () => {
    const wrong = createStorage(s3Env({ s3Bucket: "svc-no-such-bucket" })) as S3ObjectStorage;
    try {
      await expect(wrong.get("x")).rejects.toMatchObject({ name: "NoSuchBucket" });
      await expect(wrong.put("x", Buffer.from("x"), { contentType: "text/plain" })).rejects.toMatchObject({ name: "NoSuchBucket" });
    } finally {
      wrong.close();
    }
  });

  it("fails on refused credentials rather than answering null", async () => {
    const wrong = createStorage(s3Env({ s3AccessKeyId: "UNKNOWNKEY" })) as S3ObjectStorage;
    try {
      await expect(wrong.get("x")).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
      await expect(wrong.stat("x")).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
      await expect(wrong.put("x", Buffer.from("x"), { contentType: "text/plain" })).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
    } finally {
      wrong.close();
    }
  });
});
