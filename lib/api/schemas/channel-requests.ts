import { z } from "@/lib/api/zod";
import { ChannelRoutingSetting } from "./channels";

const token = z.string().min(1).max(4096);
const providerId = z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, "Expected the provider's id (letters, digits, _ or -).");

export const ChannelCreate = z
  .discriminatedUnion("platform", [
    z
      .object({
        platform: z.literal("PLATFORM_A"),
        display_name: z.string().max(200).nullable().optional(),
        phone_number: z
          .string()
          .regex(/^\+[1-9]\d{7,14}$/, "Expected E.164, e.g. +14155550123.")
          .nullable()
          .optional(),
        routing_mode: ChannelRoutingSetting.optional(),
        credentials: z.object({ phone_number_id: providerId, business_account_id: providerId, access_token: token }).strict(),
      })
      .strict(),
    z
      .object({
        platform: z.literal("PLATFORM_B"),
        display_name: z.string().max(200).nullable().optional(),
        phone_number: z.null().optional(),
        routing_mode: ChannelRoutingSetting.optional(),
        credentials: z.object({ account_id: providerId, access_token: token }).strict(),
      })
      .strict(),
    z
      .object({
        platform: z.literal("PLATFORM_C"),
        display_name: z.string().max(200).nullable().optional(),
        phone_number: z.null().optional(),
        routing_mode: ChannelRoutingSetting.optional(),
        credentials: z.object({ page_id: providerId, access_token: token }).strict(),
      })
      .strict(),
  ])
  .openapi("ChannelCreate", { description: "Credentials are encrypted at rest and never returned." });

export const ChannelUpdate = z.object({ routing_mode: ChannelRoutingSetting }).strict().openapi("ChannelUpdate");

// What a client sends (z.input: before parsing), for `import type` in the browser.
export type ChannelCreateInput = z.input<typeof ChannelCreate>;
