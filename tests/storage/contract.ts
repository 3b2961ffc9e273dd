import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { InvalidStorageKey, StorageRangeError, readBody, type ByteRange, type ObjectStorage } from "@/lib/ports/storage";

/**
 * The behaviour every storage adapter must have. Each adapter's test file calls this with a getter for
 * a ready instance (created in its beforeAll), so local and S3 are held to exactly the same rules.
 */
export function storageContract(label: string, storage: () => ObjectStorage) {
  // > 64 KiB so streams arrive in several chunks; random bytes so any shift or truncation shows.
  const bytes = randomBytes(150_000);
  const size = bytes.length;
  let seq = 0;
  const key = (name: string) => `contract/${label}/${++seq}/${name}`;

  async function getRange(k: string, range: ByteRange) {
    const got = await storage().get(k, range);
    if (!got) throw new Error(`missing ${k}`);
    return { ...got, bytes: await readBody(got.body) };
  }

  describe(`storage contract: ${label}`, () => {
    it("round-trips put → get → stat → delete with byte-exact content and the content type", async () => {
      const s = storage();
      const k = key("photo.jpg");
      await s.put(k, bytes, { contentType: "image/jpeg" });

      const got = await s.get(k);
      expect(got).not.toBeNull();
      expect(got!.size).toBe(size);
      expect(got!.length).toBe(size);
      expect(got!.range).toBeNull();
      expect(got!.contentType).toBe("image/jpeg");
      expect((await readBody(got!.body)).equals(bytes)).toBe(true);

      expect(await s.stat(k)).toEqual({ size, contentType: "image/jpeg" });

      await s.delete(k);
      expect(await s.get(k)).toBeNull();
      expect(await s.stat(k)).toBeNull();
    });

    it("keeps content types with parameters", async () => {
      const k = key("note.txt");
      await storage().put(k, Buffer.from("héllo", "utf8"), { contentType: "text/plain; charset=utf-8" });
      const got = await storage().get(k);
      expect(got!.contentType).toBe("text/plain; charset=utf-8");
      expect((await readBody(got!.body)).toString("utf8")).toBe("héllo");
    });

    it("replaces an object whole on a second put", async () => {
      const s = storage();
      const k = key("v.bin");
      await s.put(k, bytes, { contentType: "application/octet-stream" });
      const second = Buffer.from("short replacement");
      await s.put(k, second, { contentType: "text/plain" });
      const got = await s.get(k);
      expect(got!.size).toBe(second.length);
      expect(got!.contentType).toBe("text/plain");
      expect((await readBody(got!.body)).equals(second)).toBe(true);
    });

    it("stores an empty object", async () => {
      const k = key("empty");
      await storage().put(k, Buffer.alloc(0), { contentType: "text/plain" });
      expect(await storage().stat(k)).toEqual({ size: 0, contentType: "text/plain" });
      const got = await storage().get(k);
      expect(got!.size).toBe(0);
      expect(got!.length).toBe(0);
      expect((await readBody(got!.body)).length).toBe(0);
    });

    it("keeps sibling and nested keys apart", async () => {
      const s = storage();
      const base = key("dir");
      await s.put(`${base}/a/one.bin`, Buffer.from("one"), { contentType: "text/plain" });
      await s.put(`${base}/a/two.bin`, Buffer.from("two"), { contentType: "image/png" });
      await s.put(`${base}/b.meta.json`, Buffer.from("{}"), { contentType: "application/json" });
      expect((await readBody((await s.get(`${base}/a/one.bin`))!.body)).toString()).toBe("one");
      expect((await s.get(`${base}/a/two.bin`))!.contentType).toBe("image/png");
      expect((await s.get(`${base}/b.meta.json`))!.contentType).toBe("application/json");
      await s.delete(`${base}/a/one.bin`);
      expect(await s.stat(`${base}/a/one.bin`)).toBeNull();
      expect(await s.stat(`${base}/a/two.bin`)).toEqual({ size: 3, contentType: "image/png" });
    });

    describe("ranges (HTTP semantics: end inclusive, optional)", () => {
      const k = key("ranged.bin");
      const ready = () => storage().put(k, bytes, { contentType: "video/mp4" });

      it("serves the first bytes", async () => {
        await ready();
        const got = await getRange(k, { start: 0, end: 9 });
        expect(got.bytes.equals(bytes.subarray(0, 10))).toBe(true);
        expect(got.range).toEqual({ start: 0, end: 9 });
        expect(got.length).toBe(10);
        expect(got.size).toBe(size);
        expect(got.contentType).toBe("video/mp4");
      });

      it("serves a middle slice that crosses stream chunk boundaries", async () => {
        await ready();
        const got = await getRange(k, { start: 65_000, end: 140_000 });
        expect(got.bytes.equals(bytes.subarray(65_000, 140_001))).toBe(true);
        expect(got.range).toEqual({ start: 65_000, end: 140_000 });
        expect(got.length).toBe(75_001);
        expect(got.size).toBe(size);
      });

      it("serves an open-ended range to the end", async () => {
        await ready();
        const got = await getRange(k, { start: 100_000 });
        expect(got.bytes.equals(bytes.subarray(100_000))).toBe(true);
        expect(got.range).toEqual({ start: 100_000, end: size - 1 });
        expect(got.length).toBe(size - 100_000);
      });

      it("serves the last byte alone (closed and open-ended)", async () => {
        await ready();
        for (const range of [{ start: size - 1, end: size - 1 }, { start: size - 1 }]) {
          const got = await getRange(k, range);
          expect(got.bytes.equals(bytes.subarray(size - 1))).toBe(true);
          expect(got.range).toEqual({ start: size - 1, end: size - 1 });
          expect(got.length).toBe(1);
        }
      });

      it("serves a single byte in the middle and the whole object as a range", async () => {
        await ready();
        const one = await getRange(k, { start: 77_777, end: 77_777 });
        expect([...one.bytes]).toEqual([bytes[77_777]]);
        const all = await getRange(k, { start: 0 });
        expect(all.bytes.equals(bytes)).toBe(true);
        expect(all.range).toEqual({ start: 0, end: size - 1 });
      });

      it("clamps an end past the last byte", async () => {
        await ready();
        const got = await getRange(k, { start: size - 5, end: size + 1000 });
        expect(got.bytes.equals(bytes.subarray(size - 5))).toBe(true);
        expect(got.range).toEqual({ start: size - 5, end: size - 1 });
      });

      it("refuses a range starting at or past the end with StorageRangeError carrying the size", async () => {
        await ready();
        for (const range of [{ start: size }, { start: size + 10, end: size + 20 }]) {
          const err = await storage()
            .get(k, range)
            .catch((e: unknown) => e);
          expect(err).toBeInstanceOf(StorageRangeError);
          expect((err as StorageRangeError).size).toBe(size);
        }
      });

      it("rejects malformed ranges before touching the store", async () => {
        for (const range of [{ start: -1 }, { start: 5, end: 4 }, { start: 1.5 }, { start: Number.NaN }]) {
          await expect(storage().get(k, range)).rejects.toBeInstanceOf(RangeError);
        }
      });

      it("answers null for a range of a missing key", async () => {
        expect(await storage().get(key("nope"), { start: 0, end: 1 })).toBeNull();
      });
    });

    it("answers null for a missing key", async () => {
      const k = key("missing.bin");
      expect(await storage().get(k)).toBeNull();
      expect(await storage().stat(k)).toBeNull();
    });

    it("deletes idempotently", async () => {
      const s = storage();
      const k = key("twice.bin");
      await s.put(k, Buffer.from("x"), { contentType: "text/plain" });
      await s.delete(k);
      await expect(s.delete(k)).resolves.toBeUndefined();
      await expect(s.delete(key("never-existed"))).resolves.toBeUndefined();
      expect(await s.get(k)).toBeNull();
    });

    it("validates keys on every operation", async () => {
      const s = storage();
      const bad = [
        "",
        "/etc/passwd",
        "../escape",
        "a/../../b",
        "..",
        ".",
        "a/./b",
        "a//b",
        "trailing/",
        "with space",
        "back\\slash",
        "%2e%2e/x",
        "ünïcode",
        "nul\0byte",
        "x".repeat(1025),
        "a/" + "s".repeat(256),
      ];
      for (const k of bad) {
        await expect(s.put(k, Buffer.from("x"), { contentType: "text/plain" }), k).rejects.toBeInstanceOf(InvalidStorageKey);
        await expect(s.get(k), k).rejects.toBeInstanceOf(InvalidStorageKey);
        await expect(s.get(k, { start: 0 }), k).rejects.toBeInstanceOf(InvalidStorageKey);
        await expect(s.stat(k), k).rejects.toBeInstanceOf(InvalidStorageKey);
        await expect(s.delete(k), k).rejects.toBeInstanceOf(InvalidStorageKey);
      }
      const good = `${key("ok")}/Media_01.v2-final.JPG`;
      await s.put(good, Buffer.from("ok"), { contentType: "image/jpeg" });
      expect(await s.stat(good)).toEqual({ size: 2, contentType: "image/jpeg" });
      // 200-character segments: s3rver (the test fake) adds a suffix to the last one on its disk.
      const long = `${key("l")}/${"y".repeat(200)}/${"z".repeat(200)}/${"w".repeat(200)}/${"v".repeat(200)}`;
      await s.put(long, Buffer.from("long"), { contentType: "text/plain" });
      expect((await s.stat(long))!.size).toBe(4);
    });

    it("rejects content types that could break a header", async () => {
      for (const contentType of ["", "text/plain\r\nX-Evil: 1", " leading-space", "x".repeat(256)]) {
        await expect(storage().put(key("ct"), Buffer.from("x"), { contentType })).rejects.toBeInstanceOf(TypeError);
      }
    });

    it("handles concurrent puts of different keys", async () => {
      const s = storage();
      const keys = Array.from({ length: 12 }, (_, i) => key(`parallel-${i}.bin`));
      await Promise.all(keys.map((k, i) => s.put(k, Buffer.from(`body ${i}`), { contentType: "text/plain" })));
      const bodies = await Promise.all(keys.map(async (k) => (await readBody((await s.get(k))!.body)).toString()));
      expect(bodies).toEqual(keys.map((_, i) => `body ${i}`));
    });
  });
}
