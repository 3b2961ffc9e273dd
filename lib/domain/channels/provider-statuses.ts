import { and, eq } from "drizzle-orm";
import { channels } from "@/lib/db/schema";
import type { SystemCtx } from "@/lib/domain/context";
import { providerAccountOf } from "./provider-account";
import { ProviderError, type ProviderAccount } from "@/lib/ports/provider/types";
import type { ChannelRow } from "./sandbox";
import { throughputMpsOfLevel } from "./throughput";

/**
 * A dedicated PLATFORM_A number's provider statuses, which publish readiness judges
 * (lib/domain/channels/publish-readiness.ts): read from the provider when the number is connected, and again
 * when GET /readiness finds them older than PROVIDER_STATUSES_MAX_AGE_MS, so an account the provider
 * approves after the connect becomes ready without connecting again (docs/api-decisions.md "Templates").
 */
const PROVIDER_STATUSES_MAX_AGE_MS = 10 * 60_000;

type StatusColumns = Pick<
  typeof channels.$inferInsert,
  "businessVerificationStatus" | "accountReviewStatus" | "phoneNumberStatus" | "paymentStatus" | "throughputMps" | "providerStatusesCheckedAt"
>;

/**
 * The channel columns the provider's answer sets. Only what was read is set: a half the provider did
 * not answer keeps the stored value, and a provider that answers nothing changes only the checked
 * time (readiness then shows the statuses as they were, or unknown on a new number). The number's
 * throughput level, when answered, becomes throughput_mps (throughput.ts: NOT_APPLICABLE → null, the 80 default).
 */
export async function readProviderStatuses(ctx: Pick<SystemCtx, "ports" | "now">, account: ProviderAccount): Promise<StatusColumns> {
  try {
    const { phoneNumber, businessAccount } = await ctx.ports.provider.accounts.readStatuses(account);
    return {
      ...(phoneNumber ? { phoneNumberStatus: phoneNumber.status } : {}),
      ...(phoneNumber?.throughputLevel ? { throughputMps: throughputMpsOfLevel(phoneNumber.throughputLevel) } : {}),
      ...(businessAccount
        ? {
            businessVerificationStatus: businessAccount.businessVerificationStatus,
            accountReviewStatus: businessAccount.accountReviewStatus,
            // The provider has no payment "status": a business account with a primary funding source has a way to pay.
            paymentStatus: businessAccount.primaryFundingId ? "active" : "none",
          }
        : {}),
      providerStatusesCheckedAt: ctx.now,
    };
  } catch (error) {
    if (!ProviderError.is(error)) throw error;
    return { providerStatusesCheckedAt: ctx.now };
  }
}

/** Whether the channel's statuses are read from the provider at all: the project's own connected PLATFORM_A numbers. */
function readsStatuses(channel: ChannelRow): boolean {
  return channel.platform === "PLATFORM_A" && !channel.isSandbox && channel.status === "connected" && channel.credentialsSealed !== null;
}

/**
 * Reads the statuses again when they were never read or are older than PROVIDER_STATUSES_MAX_AGE_MS;
 * answers the channel as stored afterwards. updated_at moves only when a status changed.
 */
export async function refreshProviderStatuses(ctx: SystemCtx, channel: ChannelRow): Promise<ChannelRow> {
  if (!readsStatuses(channel)) return channel;
  const checked = channel.providerStatusesCheckedAt;
  if (checked && ctx.now.getTime() - checked.getTime() < PROVIDER_STATUSES_MAX_AGE_MS) return channel;
  const columns = await readProviderStatuses(ctx, providerAccountOf(channel, ctx.settings));
  const changed = (Object.keys(columns) as (keyof StatusColumns)[]).some((key) => key !== "providerStatusesCheckedAt" && columns[key] !== channel[key]);
  const [row] = await ctx.db
    .update(channels)
    .set({ ...columns, ...(changed ? { updatedAt: ctx.now } : {}) })
    // Still connected: a disconnect meanwhile wiped the credentials these statuses were read with.
    .where(and(eq(channels.id, channel.id), eq(channels.status, "connected")))
    .returning();
  return row ?? channel;
}
