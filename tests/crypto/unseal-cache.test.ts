import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { seal, unseal, unsealCached } from "@/lib/crypto/secrets";

const saved = process.env.SVC_ENCRYPTION_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.SVC_ENCRYPTION_KEY;
  else process.env.SVC_ENCRYPTION_KEY = saved;
});

const freshKey = () => randomBytes(32).toString("base64");

describe("unsealCached (a webhook secret, unsealed for every delivery)", () => {
  it("gives what unseal gives, again and again, and a newly sealed secret its own value", () => {
    process.env.SVC_ENCRYPTION_KEY = freshKey();
    const first = seal("whsec_first");
    expect(unsealCached(first)).toBe("whsec_first");
    expect(unsealCached(first)).toBe(unseal(first));
    const rotated = seal("whsec_rotated");
    expect(unsealCached(rotated)).toBe("whsec_rotated");
    expect(unsealCached(first)).toBe("whsec_first");
  });

  it("forgets everything when the encryption key changes: a value sealed under another key fails as unseal does", () => {
    const keyA = freshKey();
    process.env.SVC_ENCRYPTION_KEY = keyA;
    const sealed = seal("whsec_under_a");
    expect(unsealCached(sealed)).toBe("whsec_under_a");
    process.env.SVC_ENCRYPTION_KEY = freshKey();
    expect(() => unseal(sealed)).toThrow();
    expect(() => unsealCached(sealed)).toThrow();
    process.env.SVC_ENCRYPTION_KEY = keyA;
    expect(unsealCached(sealed)).toBe("whsec_under_a");
  });

  it("stays right past its size (the oldest entries are dropped, then unsealed again when asked)", () => {
    process.env.SVC_ENCRYPTION_KEY = freshKey();
    const values = Array.from({ length: 1200 }, (_, i) => `whsec_${i}`);
    const sealed = values.map((v) => seal(v));
    sealed.forEach((s, i) => expect(unsealCached(s)).toBe(values[i]));
    sealed.forEach((s, i) => expect(unsealCached(s)).toBe(values[i]));
  });

  it("refuses what unseal refuses", () => {
    expect(() => unsealCached("v2.x.y.z")).toThrow(/Unrecognised sealed secret format/);
  });
});
