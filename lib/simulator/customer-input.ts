import { z } from "zod";

/**
 * The body of `POST /customer/messages`: one action of a simulated customer.
 *   {platform, sender_id, from, name?, type, reply_to?, business_account_id?, display_phone_number?, ...}
 * with the field each type needs:
 *   text: {text} · image|audio|video|document|sticker: {media?:{mime_type?, caption?, filename?,
 *   link? | id?, voice?, animated?}} (no media = a small placeholder file) · location: {location}
 *   · contacts: {contacts} · button_reply|list_reply: {reply:{id, title, description?}}
 *   · flow_completion: {flow:{flow_token, response?}} · reaction: {reaction:{message_id, emoji}}
 *   (emoji "" removes) · edit: {edit:{message_id, text}} · revoke: {revoke:{message_id}}
 *   · unsupported: {unsupported?:{type?}} · button (template quick reply): {button:{payload, text}}
 *   · postback (B/C): {postback:{title, payload}} · system (A): {system?:{type?, body?, new_wa_id?}}.
 */
const CUSTOMER_TYPES = [
  "text",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "location",
  "contacts",
  "button_reply",
  "list_reply",
  "flow_completion",
  "reaction",
  "edit",
  "revoke",
  "unsupported",
  "button",
  "postback",
  "system",
] as const;

type CustomerType = (typeof CUSTOMER_TYPES)[number];

export const MEDIA_CUSTOMER_TYPES: ReadonlySet<string> = new Set(["image", "audio", "video", "document", "sticker"]);

const mediaSchema = z.object({
  mime_type: z.string().min(1).optional(),
  caption: z.string().max(1024).optional(),
  filename: z.string().max(240).optional(),
  link: z.url().optional(),
  id: z.string().min(1).optional(),
  voice: z.boolean().optional(),
  animated: z.boolean().optional(),
});

const customerInputSchema = z.object({
  platform: z.enum(["PLATFORM_A", "PLATFORM_B", "PLATFORM_C"]),
  sender_id: z.string().min(1),
  from: z.string().min(1),
  name: z.string().min(1).optional(),
  type: z.enum(CUSTOMER_TYPES),
  reply_to: z.string().min(1).optional(),
  business_account_id: z.string().min(1).optional(),
  display_phone_number: z.string().min(1).optional(),
  text: z.string().min(1).max(4096).optional(),
  media: mediaSchema.optional(),
  location: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: z.string().optional(),
      address: z.string().optional(),
      url: z.string().optional(),
    })
    .optional(),
  contacts: z.array(z.record(z.string(), z.unknown())).min(1).optional(),
  reply: z.object({ id: z.string().min(1), title: z.string().min(1), description: z.string().optional() }).optional(),
  flow: z.object({ flow_token: z.string().min(1), response: z.record(z.string(), z.unknown()).optional() }).optional(),
  reaction: z.object({ message_id: z.string().min(1), emoji: z.string() }).optional(),
  edit: z.object({ message_id: z.string().min(1), text: z.string().min(1) }).optional(),
  revoke: z.object({ message_id: z.string().min(1) }).optional(),
  unsupported: z.object({ type: z.string().min(1).optional() }).optional(),
  button: z.object({ payload: z.string().min(1), text: z.string().min(1) }).optional(),
  postback: z.object({ title: z.string().min(1), payload: z.string().min(1) }).optional(),
  system: z.object({ type: z.string().optional(), body: z.string().optional(), new_wa_id: z.string().optional() }).optional(),
});

export type CustomerInput = z.infer<typeof customerInputSchema>;

const REQUIRED: Partial<Record<CustomerType, keyof CustomerInput>> = {
  text: "text",
  location: "location",
  contacts: "contacts",
  button_reply: "reply",
  list_reply: "reply",
  flow_completion: "flow",
  reaction: "reaction",
  edit: "edit",
  revoke: "revoke",
  button: "button",
  postback: "postback",
};

/** Parses the body; returns the input or a readable problem. */
export function parseCustomerInput(body: unknown): { ok: true; input: CustomerInput } | { ok: false; error: string } {
  const parsed = customerInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid body" };
  }
  const input = parsed.data;
  const needed = REQUIRED[input.type];
  if (needed && input[needed] === undefined) return { ok: false, error: `type ${input.type} needs the ${needed} field` };
  if (input.platform === "PLATFORM_A" && !/^\+?\d{5,20}$/.test(input.from)) {
    return { ok: false, error: "from must be the customer's phone number (digits) on PLATFORM_A" };
  }
  if (input.media?.id && input.media.link) return { ok: false, error: "media: give link or id, not both" };
  return { ok: true, input };
}
