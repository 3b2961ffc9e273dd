import { describe, expect, it } from "vitest";
import { confirmsErasure } from "@/components/inbox/erase-confirm";

describe("the dashboard's typed confirmation for erasing a contact", () => {
  it("accepts the contact's number however it is typed, or ERASE", () => {
    for (const typed of ["+14155550123", "14155550123", "+1 415-555-0123", " +1 (415) 555 0123 ", "ERASE"]) {
      expect(confirmsErasure(typed, "+14155550123")).toBe(true);
    }
  });

  it("refuses anything else: another number, a part of it, erase in lower case, nothing", () => {
    for (const typed of ["", "+14155550124", "4155550123", "0123", "erase", "ERASE!"]) expect(confirmsErasure(typed, "+14155550123")).toBe(false);
  });

  it("needs ERASE for a contact without a phone (platform user ids)", () => {
    expect(confirmsErasure("", null)).toBe(false);
    expect(confirmsErasure("123456", null)).toBe(false);
    expect(confirmsErasure("ERASE", null)).toBe(true);
  });
});
