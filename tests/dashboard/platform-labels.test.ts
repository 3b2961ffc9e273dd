import { describe, expect, it } from "vitest";
import { Platform } from "@/lib/api/schemas/channels";
import { channels } from "@/lib/db/schema";
import { PLATFORM_CODES, PLATFORMS, platformLabel, platformName } from "@/lib/shared/platforms";

/**
 * Platforms as a business user reads them (lib/shared/platforms.ts, issue 32 item 12): every code the
 * API and the database can hold has a human name and one line of description, never the code alone.
 */
describe("the platform label map", () => {
  it("covers exactly the platform enum of the wire schema and of the channels table", () => {
    expect([...PLATFORM_CODES].sort()).toEqual([...Platform.options].sort());
    expect([...PLATFORM_CODES].sort()).toEqual([...channels.platform.enumValues].sort());
    expect(Object.keys(PLATFORMS).sort()).toEqual([...PLATFORM_CODES].sort());
  });

  it.each(PLATFORM_CODES)("%s has a name that is not its code, and a one-line description", (code) => {
    const info = PLATFORMS[code];
    expect(info.name).not.toBe(code);
    expect(info.name).not.toMatch(/PLATFORM_/);
    expect(info.description.length).toBeGreaterThan(10);
    expect(info.description).not.toContain("\n");
    expect(info.description).toMatch(/\.$/);
  });

  it("names the spec's platforms by what they are for", () => {
    expect(platformName("PLATFORM_A")).toBe("Business messaging");
    expect(platformName("PLATFORM_B")).toBe("Photo-sharing DMs");
    expect(platformName("PLATFORM_C")).toBe("Page messenger");
    expect(platformName("PLATFORM_D")).toBe("Bot messaging");
    expect(PLATFORMS.PLATFORM_B.beta && PLATFORMS.PLATFORM_C.beta).toBe(true);
  });

  it("keeps the code as secondary text in plain-text labels, and shows an unknown code as is", () => {
    expect(platformLabel("PLATFORM_A")).toBe("Business messaging (PLATFORM_A)");
    expect(platformName("PLATFORM_Z")).toBe("PLATFORM_Z");
    expect(platformLabel("PLATFORM_Z")).toBe("PLATFORM_Z");
  });
});
