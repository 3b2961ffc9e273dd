import { and, eq } from "drizzle-orm";
import { channels, registrationIntents } from "@/lib/db/schema";
import type { Ctx } from "@/lib/domain/context";
import { getSandboxChannel, type ChannelRow } from "@/lib/domain/channels/sandbox";
import { SvcError, invalidRequest } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { generateToken, prefilledText } from "./token";
import { serializeRegistrationIntent } from "./serialize";

export const EXPIRES_MIN_SECONDS = 60;
export const EXPIRES_MAX_SECONDS = 604_800;
const METADATA_MAX_KEYS = 50;
const METADATA_MAX_BYTES = 8192;

export interface CreateRegistrationIntentInput {
  customer_reference: string;
  prefilled_message?: string | undefined;
  expires_in_seconds?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/**
 * POST /registration-intents (docs/spec/decisions.md "Registration intents"): a link to the project's
 * own PLATFORM_A number once one is connected (live), else to the shared sandbox (test).
 */
export async function createRegistrationIntent(ctx: Ctx, input: CreateRegistrationIntentInput) {
  checkMetadata(input.metadata);
  const token = generateToken();
  const text = prefilledText(input.prefilled_message, token);
  const { channel, mode } = await linkChannel(ctx);
  const expiresIn = input.expires_in_seconds ?? EXPIRES_MAX_SECONDS;
  const [row] = await ctx.db
    .insert(registrationIntents)
    .values({
      id: newId("registrationIntent", ctx.now.getTime()),
      projectId: ctx.project.id,
      organizationId: ctx.org.id,
      channelId: channel.id,
      mode,
      token,
      status: "PENDING",
      customerReference: input.customer_reference,
      prefilledMessage: text,
      whatsappNumber: channel.phoneNumber!,
      metadata: input.metadata ?? null,
      apiKeyId: ctx.actor.type === "api_key" ? ctx.actor.id : null,
      expiresAt: new Date(ctx.now.getTime() + expiresIn * 1000),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    })
    .returning();
  return serializeRegistrationIntent(row!, ctx.now);
}

/** The project's dedicated channel when it can receive the customer's message; otherwise the sandbox. */
async function linkChannel(ctx: Ctx): Promise<{ channel: ChannelRow; mode: "live" | "test" }> {
  if (ctx.project.channelId) {
    const [own] = await ctx.db
      .select()
      .from(channels)
      .where(and(eq(channels.id, ctx.project.channelId), eq(channels.organizationId, ctx.org.id)));
    if (own && own.platform === "PLATFORM_A" && own.status === "connected" && !own.isSandbox) {
      // Falling back to the sandbox here would send real customers to a capped test number unnoticed.
      if (!own.phoneNumber) {
        throw new SvcError(
          "conflict",
          `The project's own number (${own.id}) was connected without its phone_number, so no link can open it. Reconnect it with phone_number.`,
          {
            channel_id: own.id,
          },
        );
      }
      return { channel: own, mode: "live" };
    }
  }
  return { channel: await getSandboxChannel(ctx.db), mode: "test" };
}

/** Metadata is the caller's, echoed back: capped so an intent stays a small row. */
function checkMetadata(metadata: Record<string, unknown> | undefined): void {
  if (!metadata) return;
  if (Object.keys(metadata).length > METADATA_MAX_KEYS) {
    throw invalidRequest("metadata has too many keys.", { metadata: [`At most ${METADATA_MAX_KEYS} keys.`] });
  }
  if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
    throw invalidRequest("metadata is too large.", { metadata: [`At most ${METADATA_MAX_BYTES} bytes as JSON.`] });
  }
}
