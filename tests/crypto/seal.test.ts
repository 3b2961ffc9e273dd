import { describe, expect, it } from "vitest";
import { seal, unseal } from "@/lib/crypto/secrets";

describe("seal", () => {
  it("gives every seal its own IV, across refills of the random pool, and each unseals to the text", () => {
    const sealed = Array.from({ length: 1000 }, () => seal("the same text"));
    const ivs = new Set(sealed.map((s) => s.split(".")[1]));
    expect(ivs.size).toBe(1000);
    for (const s of sealed) expect(unseal(s)).toBe("the same text");
    for (const iv of ivs) expect(Buffer.from(iv!, "base64url")).toHaveLength(12);
  });
});
