import { eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { Db } from "@/lib/ports/db/types";

/** The shared sandbox channel has a fixed id so every process and test agrees on it. */
export const SANDBOX_CHANNEL_ID = "ch_sandbox";
export const SANDBOX_PHONE_NUMBER = "+15550000000";
export const SANDBOX_PHONE_NUMBER_ID = "sandbox-phone-number-id";
const SANDBOX_BUSINESS_ACCOUNT_ID = "sandbox-waba";

export type ChannelRow = typeof channels.$inferSelect;

export async function ensureSandboxChannel(db: Db): Promise<ChannelRow> {
  await db
    .insert(channels)
    .values({
      id: SANDBOX_CHANNEL_ID,
      organizationId: null,
      platform: "PLATFORM_A",
      status: "connected",
      displayName: "svc Sandbox",
      phoneNumber: SANDBOX_PHONE_NUMBER,
      routingMode: "EXTERNAL",
      numberMode: "sandbox",
      isSandbox: true,
      providerSenderId: SANDBOX_PHONE_NUMBER_ID,
      businessAccountId: SANDBOX_BUSINESS_ACCOUNT_ID,
      businessVerificationStatus: "verified",
      accountReviewStatus: "APPROVED",
      phoneNumberStatus: "CONNECTED",
      paymentStatus: "active",
    })
    .onConflictDoNothing();
  const [row] = await db.select().from(channels).where(eq(channels.id, SANDBOX_CHANNEL_ID));
  return row!;
}

export async function getSandboxChannel(db: Db): Promise<ChannelRow> {
  const [row] = await db.select().from(channels).where(eq(channels.id, SANDBOX_CHANNEL_ID));
  return row ?? ensureSandboxChannel(db);
}

/** The sandbox's provider token for the built-in simulator; against a real provider SVC_SANDBOX_ACCESS_TOKEN (Settings) replaces it. */
export const SIMULATOR_SANDBOX_ACCESS_TOKEN = "svc-sandbox-simulator-token";
