/**
 * What each platform code is, as a business user reads it (docs/spec/service-spec.md, "Neutral naming"
 * and Channel.platform). The dashboard shows `name` first and the code as secondary text, so a
 * developer can still match what the API returns. The one source: every page reads it from here.
 */
export const PLATFORM_CODES = ["PLATFORM_A", "PLATFORM_B", "PLATFORM_C", "SMS", "PLATFORM_D", "EMAIL"] as const;

export type PlatformCode = (typeof PLATFORM_CODES)[number];

export interface PlatformInfo {
  /** A few words a business user recognises. */
  name: string;
  /** One line: what a customer uses it for, and what it can do here. */
  description: string;
  /** Off for a new organization until an operator turns it on (docs/spec/decisions.md). */
  beta: boolean;
}

export const PLATFORMS: Record<PlatformCode, PlatformInfo> = {
  PLATFORM_A: {
    name: "Business messaging",
    description: "Customers chat with your business phone number; templates, Flows and agents run here.",
    beta: false,
  },
  PLATFORM_B: {
    name: "Photo-sharing DMs",
    description: "Direct messages to your business account on the photo-sharing app; replies within 24 hours only.",
    beta: true,
  },
  PLATFORM_C: {
    name: "Page messenger",
    description: "Messages to your business page's inbox; replies within 24 hours only.",
    beta: true,
  },
  SMS: { name: "Text messages", description: "SMS to and from a phone number.", beta: false },
  PLATFORM_D: { name: "Bot messaging", description: "Messages to your bot on a bot messaging app.", beta: false },
  EMAIL: { name: "Email", description: "Email to and from a support address.", beta: false },
};

/** The name for a code; an unknown code (a newer server than this page) reads as itself. */
export function platformName(code: string): string {
  return (PLATFORMS as Record<string, PlatformInfo | undefined>)[code]?.name ?? code;
}

/** "Business messaging (PLATFORM_A)": for plain-text places (options, titles) where no second line fits. */
export function platformLabel(code: string): string {
  const name = platformName(code);
  return name === code ? code : `${name} (${code})`;
}
