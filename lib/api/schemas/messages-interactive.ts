/**
 * POST /messages `interactive`, discriminated by `type`. buttons, sections and display_text/url sit at
 * the top level of the object (not in a provider `action` envelope); cta_url also accepts the verbatim
 * provider envelope `action: {name: "cta_url", parameters: {display_text, url}}` and is normalized to
 * the top-level form. `body` and `footer` take a string or the provider's `{text}` and are normalized to
 * the string; `header` takes a string (a text header) or the provider's header object.
 * Conventions: see messages-shared.ts.
 */
import { z } from "@/lib/api/zod";
import { HttpUrl, HttpsUrl, Id, capItems, exactlyOne, text, unionError, uniqueBy, wrappedText } from "./messages-shared";

const MAX_REPLY_BUTTONS = 3;
const MAX_LIST_SECTIONS = 10;
const MAX_LIST_ROWS = 10;

const Body = wrappedText(1024, "Message body.");
const Footer = wrappedText(60, "Footer.");
const HeaderText = text(60);

const headerMedia = <T extends z.ZodRawShape>(extra: T) =>
  z
    .object({ link: HttpsUrl.optional(), id: Id.optional(), ...extra })
    .strict()
    .superRefine((media, ctx) => exactlyOne(ctx, media, ["link", "id"], "Give exactly one of link or id."));

const TextHeader = z.object({ type: z.literal("text"), text: HeaderText }).strict();
const shorthandHeader = HeaderText.transform((value) => ({ type: "text" as const, text: value }));

const InteractiveHeader = z
  .union(
    [
      shorthandHeader,
      z.discriminatedUnion("type", [
        TextHeader,
        z.object({ type: z.literal("image"), image: headerMedia({}) }).strict(),
        z.object({ type: z.literal("video"), video: headerMedia({}) }).strict(),
        z.object({ type: z.literal("document"), document: headerMedia({ filename: text(240).optional() }) }).strict(),
      ]),
    ],
    { error: unionError("Must be a string (a text header, 1 to 60 characters) or a header object {type: text|image|video|document, ...}.") },
  )
  .openapi("InteractiveHeader", {
    description:
      "A string (text header, at most 60 characters) or the provider header object: {type: text, text} or {type: image|video|document, <type>: {link | id}}.",
  });

/** Lists take text headers only. */
const ListHeader = z
  .union([shorthandHeader, TextHeader], { error: unionError('Lists take a text header only: a string of 1 to 60 characters or {type: "text", text}.') })
  .openapi({ description: 'A string or {type: "text", text}; at most 60 characters.' });

const InteractiveReplyButton = z
  .object({ id: text(256), title: text(20) })
  .strict()
  .openapi("InteractiveReplyButton", {
    description: "id (1 to 256) comes back in the customer's reply; title is 1 to 20 characters. Both unique within the message.",
  });

const ButtonMessage = z
  .object({
    type: z.literal("button"),
    body: Body,
    header: InteractiveHeader.optional(),
    footer: Footer.optional(),
    buttons: z
      .array(InteractiveReplyButton)
      .min(1, "Give 1 to 3 reply buttons.")
      .superRefine((buttons, ctx) => {
        capItems(ctx, buttons, MAX_REPLY_BUTTONS, `At most ${MAX_REPLY_BUTTONS} reply buttons; use a list for more choices.`);
        uniqueBy(ctx, buttons, "id", "Button ids must be unique within the message.");
        uniqueBy(ctx, buttons, "title", "Button titles must be unique within the message.");
      })
      .openapi({ maxItems: MAX_REPLY_BUTTONS }),
  })
  .strict()
  .openapi("InteractiveButtonMessage", { description: "1 to 3 reply buttons." });

const InteractiveListRow = z
  .object({ id: text(200), title: text(24), description: text(72).optional() })
  .strict()
  .openapi("InteractiveListRow");

const InteractiveListSection = z
  .object({
    title: text(24).optional().openapi({ description: "At most 24 characters; required when the list has more than one section." }),
    rows: z.array(InteractiveListRow).min(1, "A section needs at least one row."),
  })
  .strict()
  .openapi("InteractiveListSection");

const ListMessage = z
  .object({
    type: z.literal("list"),
    body: Body,
    header: ListHeader.optional(),
    footer: Footer.optional(),
    button: text(20).openapi({ description: "Label of the button that opens the list, 1 to 20 characters." }),
    sections: z
      .array(InteractiveListSection)
      .min(1, "Give 1 to 10 sections.")
      .superRefine((sections, ctx) => {
        capItems(ctx, sections, MAX_LIST_SECTIONS, `At most ${MAX_LIST_SECTIONS} sections.`);
        if (sections.length > 1) {
          sections.forEach((section, index) => {
            if (section.title === undefined)
              ctx.addIssue({ code: "custom", path: [index, "title"], message: "Required when the list has more than one section." });
          });
        }
        let count = 0;
        const ids = new Set<string>();
        sections.forEach((section, s) =>
          section.rows.forEach((row, r) => {
            count += 1;
            if (count === MAX_LIST_ROWS + 1)
              ctx.addIssue({ code: "custom", path: [s, "rows", r], message: `At most ${MAX_LIST_ROWS} rows in all sections together.` });
            if (ids.has(row.id)) ctx.addIssue({ code: "custom", path: [s, "rows", r, "id"], message: "Row ids must be unique across all sections." });
            ids.add(row.id);
          }),
        );
      })
      .openapi({ maxItems: MAX_LIST_SECTIONS, description: "1 to 10 sections with at most 10 rows in all; row ids unique." }),
  })
  .strict()
  .openapi("InteractiveListMessage", { description: "A single-select list." });

const CtaUrlParameters = z.object({ display_text: text(20), url: HttpUrl }).strict();

const CtaUrlMessage = z
  .object({
    type: z.literal("cta_url"),
    body: Body,
    header: InteractiveHeader.optional(),
    footer: Footer.optional(),
    display_text: text(20).optional().openapi({ description: "Button label, at most 20 characters." }),
    url: HttpUrl.optional().openapi({ description: "http(s) URL the button opens." }),
    action: z
      .object({ name: z.literal("cta_url"), parameters: CtaUrlParameters })
      .strict()
      .optional()
      .openapi({ description: "The provider's action envelope, accepted verbatim instead of display_text and url." }),
  })
  .strict()
  .superRefine((cta, ctx) => {
    if (cta.action !== undefined) {
      for (const key of ["display_text", "url"] as const) {
        if (cta[key] !== undefined)
          ctx.addIssue({ code: "custom", path: [key], message: "Give display_text and url at the top level or in action.parameters, not both." });
      }
      return;
    }
    for (const key of ["display_text", "url"] as const) {
      if (cta[key] === undefined)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: 'Required (or give the provider form action: {name: "cta_url", parameters: {display_text, url}}).',
        });
    }
  })
  .transform(({ action, display_text, url, ...rest }) => ({
    ...rest,
    display_text: action?.parameters.display_text ?? display_text ?? "",
    url: action?.parameters.url ?? url ?? "",
  }))
  .openapi("InteractiveCtaUrlMessage", { description: "A URL button (PLATFORM_A only); no inbound webhook on tap." });

const LocationRequestMessage = z
  .object({ type: z.literal("location_request_message"), body: Body })
  .strict()
  .openapi("InteractiveLocationRequest", {
    description: "Asks for the customer's location (PLATFORM_A only); answered by an ordinary inbound location message.",
  });

const ContactInfoRequestMessage = z
  .object({ type: z.literal("request_contact_info"), body: Body })
  .strict()
  .openapi("InteractiveContactInfoRequest", { description: "Asks for the customer's contact details (PLATFORM_A only)." });

const INTERACTIVE_TYPES = ["button", "list", "cta_url", "location_request_message", "request_contact_info"] as const;

export const OutboundInteractive = z
  .discriminatedUnion("type", [ButtonMessage, ListMessage, CtaUrlMessage, LocationRequestMessage, ContactInfoRequestMessage], {
    error: `type must be one of ${INTERACTIVE_TYPES.join(", ")}.`,
  })
  .openapi("OutboundInteractive");
