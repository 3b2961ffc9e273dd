/**
 * POST /messages `contacts`: 1 to 20 contact cards in the provider's contacts shape.
 * Every string of a card is 1 to 1000 characters (the spec sets no limit; this bounds the payload).
 * Conventions: see messages-shared.ts.
 */
import { z } from "@/lib/api/zod";
import { capItems, text } from "./messages-shared";

const MAX_CONTACT_CARDS = 20;

const Field = text(1000);
const NAME_PARTS = ["first_name", "last_name", "middle_name", "suffix", "prefix"] as const;

const ContactName = z
  .object({
    formatted_name: Field,
    first_name: Field.optional(),
    last_name: Field.optional(),
    middle_name: Field.optional(),
    suffix: Field.optional(),
    prefix: Field.optional(),
  })
  .strict()
  .superRefine((name, ctx) => {
    if (!NAME_PARTS.some((part) => name[part] !== undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: `Besides formatted_name, give at least one of ${NAME_PARTS.join(", ")}.` });
    }
  })
  .openapi({ description: "formatted_name plus at least one of first_name, last_name, middle_name, suffix, prefix." });

const ContactPhone = z
  .object({ phone: Field.optional(), type: Field.optional(), wa_id: Field.optional().openapi({ description: "Makes the number tappable to chat." }) })
  .strict()
  .superRefine((phone, ctx) => {
    if (phone.phone === undefined && phone.wa_id === undefined) ctx.addIssue({ code: "custom", path: ["phone"], message: "Give phone, wa_id or both." });
  });

const ContactAddress = z
  .object({
    street: Field.optional(),
    city: Field.optional(),
    state: Field.optional(),
    zip: Field.optional(),
    country: Field.optional(),
    country_code: Field.optional(),
    type: Field.optional(),
  })
  .strict()
  .superRefine((address, ctx) => {
    const { type: _type, ...parts } = address;
    if (Object.values(parts).every((part) => part === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "Give at least one of street, city, state, zip, country, country_code." });
    }
  });

const ContactOrg = z
  .object({ company: Field.optional(), department: Field.optional(), title: Field.optional() })
  .strict()
  .superRefine((org, ctx) => {
    if (org.company === undefined && org.department === undefined && org.title === undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "Give at least one of company, department, title." });
    }
  });

const OutboundContactCard = z
  .object({
    name: ContactName,
    birthday: z.iso.date({ error: "Must be a real date in YYYY-MM-DD form." }).optional(),
    phones: z.array(ContactPhone).optional(),
    emails: z.array(z.object({ email: Field, type: Field.optional() }).strict()).optional(),
    urls: z.array(z.object({ url: Field, type: Field.optional() }).strict()).optional(),
    addresses: z.array(ContactAddress).optional(),
    org: ContactOrg.optional(),
  })
  .strict()
  .openapi("OutboundContactCard");

export const OutboundContacts = z
  .array(OutboundContactCard)
  .min(1, "Give 1 to 20 contact cards.")
  .superRefine((cards, ctx) => capItems(ctx, cards, MAX_CONTACT_CARDS, `At most ${MAX_CONTACT_CARDS} contact cards per message.`))
  .openapi({ description: "1 to 20 contact cards.", maxItems: MAX_CONTACT_CARDS });
