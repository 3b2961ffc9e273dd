import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalObjectStorage, StorageRangeError, createStorage, readBody, type StorageEnv } from "@/lib/ports/storage";
import { storageContract } from "./contract";

let dir: string;
let storage: LocalObjectStorage;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-storage-local-"));
  storage = new LocalObjectStorage(path.join(dir, "media"));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

storageContract("local", () => storage);

function localEnv(dataDir: string): StorageEnv {
  return {
    dataDir,
    s3Bucket: null,
    s3Region: "us-east-1",
    s3Endpoint: null,
    s3AccessKeyId: null,
    s3SecretAccessKey: null,
    s3ForcePathStyle: false,
  };
}

describe("local storage specifics", () => {
  it("createStorage() picks the local folder under ${dataDir}/media when S3_BUCKET is unset", async () => {
    const saved = { S3_BUCKET: process.env.S3_BUCKET, SVC_DATA_DIR: process.env.SVC_DATA_DIR };
    try {
      delete process.env.S3_BUCKET;
      process.env.SVC_DATA_DIR = path.join(dir, "from-env");
      const fromEnv = createStorage();
      expect(fromEnv.kind).toBe("local");
      expect((fromEnv as LocalObjectStorage).root).toBe(path.join(dir, "from-env", "media"));
      await fromEnv.put("p/x.txt", Buffer.from("hi"), { contentType: "text/plain" });
      expect(fs.readFileSync(path.join(dir, "from-env", "media", "objects", "p", "x.txt"), "utf8")).toBe("hi");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    const explicit = createStorage(localEnv(path.join(dir, "explicit")));
    expect(explicit.kind).toBe("local");
    expect((explicit as LocalObjectStorage).root).toBe(path.join(dir, "explicit", "media"));
  });

  it("keeps bytes under objects/, the content type in a meta/ sidecar, and no leftovers in tmp/", async () => {
    const root = path.join(dir, "layout");
    const s = new LocalObjectStorage(root);
    await s.put("m/proj_1/med_1.png", Buffer.from([1, 2, 3]), { contentType: "image/png" });
    expect([...fs.readFileSync(path.join(root, "objects", "m", "proj_1", "med_1.png"))]).toEqual([1, 2, 3]);
    expect(JSON.parse(fs.readFileSync(path.join(root, "meta", "m", "proj_1", "med_1.png"), "utf8"))).toEqual({
      contentType: "image/png",
    });
    expect(fs.readdirSync(path.join(root, "tmp"))).toEqual([]);
    await s.delete("m/proj_1/med_1.png");
    expect(fs.existsSync(path.join(root, "objects", "m", "proj_1", "med_1.png"))).toBe(false);
    expect(fs.existsSync(path.join(root, "meta", "m", "proj_1", "med_1.png"))).toBe(false);
  });

  it("writes atomically: an open reader keeps the old bytes, later readers get the new ones whole", async () => {
    const s = new LocalObjectStorage(path.join(dir, "atomic"));
    const first = Buffer.alloc(200_000, 0xaa);
    const second = Buffer.alloc(150_000, 0xbb);
    await s.put("k", first, { contentType: "application/octet-stream" });
    const reader = await s.get("k");
    await s.put("k", second, { contentType: "application/octet-stream" });
    expect((await readBody(reader!.body)).equals(first)).toBe(true);
    expect((await readBody((await s.get("k"))!.body)).equals(second)).toBe(true);

    // Racing writers of the same key: the survivor is one of them, whole.
    const bodies = Array.from({ length: 8 }, (_, i) => Buffer.alloc(50_000 + i, i));
    await Promise.all(bodies.map((b) => s.put("race", b, { contentType: "application/octet-stream" })));
    const final = await readBody((await s.get("race"))!.body);
    expect(bodies.some((b) => b.equals(final))).toBe(true);
    expect(fs.readdirSync(path.join(dir, "atomic", "tmp"))).toEqual([]);
  });

  it("answers an object without a sidecar as application/octet-stream", async () => {
    const root = path.join(dir, "nosidecar");
    const s = new LocalObjectStorage(root);
    await s.put("a.bin", Buffer.from("x"), { contentType: "image/gif" });
    fs.rmSync(path.join(root, "meta", "a.bin"));
    expect(await s.stat("a.bin")).toEqual({ size: 1, contentType: "application/octet-stream" });
  });

  it("refuses any range of an empty object (416 with size 0)", async () => {
    await storage.put("empty-range", Buffer.alloc(0), { contentType: "text/plain" });
    const err = await storage.get("empty-range", { start: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageRangeError);
    expect((err as StorageRangeError).size).toBe(0);
  });

  it("treats a folder of other keys as no object, and refuses a key that would clash with one", async () => {
    const s = new LocalObjectStorage(path.join(dir, "clash"));
    await s.put("a/b", Buffer.from("x"), { contentType: "text/plain" });
    expect(await s.get("a")).toBeNull();
    expect(await s.stat("a")).toBeNull();
    await expect(s.delete("a")).resolves.toBeUndefined();
    await expect(s.put("a", Buffer.from("y"), { contentType: "text/plain" })).rejects.toThrow(/conflicts with an existing key/);
    await expect(s.put("a/b/c", Buffer.from("y"), { contentType: "text/plain" })).rejects.toThrow(/conflicts with an existing key/);
    expect(await s.get("a/b/c")).toBeNull();
    expect((await readBody((await s.get("a/b"))!.body)).toString()).toBe("x");
  });

  it("never touches files outside its folder", async () => {
    const root = path.join(dir, "jail", "media");
    const outside = path.join(dir, "jail", "secret.txt");
    fs.mkdirSync(path.dirname(outside), { recursive: true });
    fs.writeFileSync(outside, "secret");
    const s = new LocalObjectStorage(root);
    await expect(s.get("../secret.txt")).rejects.toThrow(/Invalid storage key/);
    await expect(s.get("../../jail/secret.txt")).rejects.toThrow(/Invalid storage key/);
    await expect(s.delete("../secret.txt")).rejects.toThrow(/Invalid storage key/);
    await expect(s.put(outside, Buffer.from("pwned"), { contentType: "text/plain" })).rejects.toThrow(/Invalid storage key/);
    expect(fs.readFileSync(outside, "utf8")).toBe("secret");
  });
});
