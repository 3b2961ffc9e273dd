/**
 * POST /messages content fields other than interactive and contacts: template, media, reaction,
 * location, sticker. Conventions: see messages-shared.ts.
 */
import { z } from "@/lib/api/zod";
import { HttpsUrl, Id, exactlyOne, forwardIssues, text } from "./messages-shared";

// ---------------------------------------------------------------------------------------- template

/** A button component that opens a Flow from a flow-type template (provider shape). */
const TemplateFlowButtonComponent = z
  .object({
    type: z.literal("button"),
    sub_type: z.literal("flow"),
    index: z.union([z.number().int().min(0, "Must be 0 to 9.").max(9, "Must be 0 to 9."), z.string().regex(/^\d$/, "Must be 0 to 9.")]),
    parameters: z
      .array(
        z
          .object({
            type: z.literal("action"),
            action: z
              .object({
                flow_token: text(1000).optional(),
                flow_action_data: z.record(z.string(), z.unknown()).optional(),
              })
              .strict(),
          })
          .strict(),
      )
      .length(1, 'A flow button takes exactly one parameter: {type: "action", action: {flow_token, flow_action_data}}.'),
  })
  .strict();

/**
 * A template component in the provider's shape, passed through verbatim. Every component needs a
 * `type`; a component with `sub_type: "flow"` must match TemplateFlowButtonComponent exactly.
 */
const TemplateComponent = z
  .record(z.string(), z.unknown())
  .superRefine((component, ctx) => {
    if (typeof component.type !== "string" || component.type === "") {
      ctx.addIssue({ code: "custom", path: ["type"], message: "Every component needs a type (header, body, button, ...)." });
      return;
    }
    if (component.sub_type === "flow") {
      const parsed = TemplateFlowButtonComponent.safeParse(component);
      if (!parsed.success) forwardIssues(ctx, parsed.error);
    }
  })
  .openapi("TemplateComponent", {
    description:
      "A component in the provider's template-send shape (type header, body, button, ...), passed through verbatim; `type` is required. " +
      'A button that opens a Flow must be exactly {type: "button", sub_type: "flow", index: 0-9 (number or digit string), parameters: [{type: "action", action: {flow_token?, flow_action_data?}}]}.',
    properties: { type: { type: "string", description: "header, body, button, ..." } },
    required: ["type"],
  });

export const OutboundTemplate = z
  .object({
    id: Id.optional().openapi({ description: "Svc template id (tmpl_...). Give either id, or name and language." }),
    name: text(512)
      .regex(/^[a-z0-9_]+$/, "Lowercase letters, digits and underscores only.")
      .optional()
      .openapi({ description: "Template name (max 512, [a-z0-9_]); needs language." }),
    language: text(10, 2).optional().openapi({ description: "Template language code, 2 to 10 characters (e.g. en_US); required with name." }),
    components: z.array(TemplateComponent).optional(),
  })
  .strict()
  .superRefine((template, ctx) => {
    if (template.id !== undefined) {
      for (const key of ["name", "language"] as const) {
        if (template[key] !== undefined)
          ctx.addIssue({ code: "custom", path: [key], message: "Give either the template id, or its name and language, not both." });
      }
    } else if (template.name !== undefined) {
      if (template.language === undefined) ctx.addIssue({ code: "custom", path: ["language"], message: "Required with name." });
    } else {
      exactlyOne(ctx, template, ["id", "name"], "Give the template id, or its name and language.");
    }
  })
  .openapi("OutboundTemplate", { description: "{id} or {name, language}, with optional components (PLATFORM_A only)." });

// ------------------------------------------------------------------------------------------- media

const MEDIA_TYPES = ["image", "document", "video", "audio"] as const;

export const OutboundMedia = z
  .object({
    type: z.enum(MEDIA_TYPES),
    link: HttpsUrl.optional().openapi({ description: "https URL the provider fetches. Exactly one of link or id." }),
    id: Id.optional().openapi({ description: "Provider media id (PLATFORM_A only). Exactly one of link or id." }),
    caption: text(1024).optional().openapi({ description: "At most 1024 characters; not for audio; PLATFORM_A only." }),
    filename: text(240).optional().openapi({ description: "At most 240 characters; documents only; PLATFORM_A only." }),
  })
  .strict()
  .superRefine((media, ctx) => {
    exactlyOne(ctx, media, ["link", "id"], "Give exactly one of link or id.");
    if (media.type === "audio" && media.caption !== undefined) {
      ctx.addIssue({ code: "custom", path: ["caption"], message: "Audio has no caption; send the text as a separate text message." });
    }
    if (media.type !== "document" && media.filename !== undefined) {
      ctx.addIssue({ code: "custom", path: ["filename"], message: "filename applies to documents only; remove it." });
    }
  })
  .openapi("OutboundMedia");

// ---------------------------------------------------------------------------------------- reaction

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** "" (remove the reaction) or exactly one emoji (one grapheme cluster, skin tones and ZWJ sequences included). */
function isReactionEmoji(value: string): boolean {
  if (value === "") return true;
  const clusters = [...graphemes.segment(value)];
  return clusters.length === 1 && EMOJI.test(value);
}

export const OutboundReaction = z
  .object({
    message_id: Id.openapi({ description: "Provider id of the message to react to (message.received's message id)." }),
    emoji: z
      .string()
      .max(32, "At most 32 characters.")
      .refine(isReactionEmoji, 'Must be a single emoji, or "" to remove your reaction.')
      .openapi({ description: "One emoji; the empty string removes the reaction." }),
  })
  .strict()
  .openapi("OutboundReaction");

// ---------------------------------------------------------------------------------------- location

export const OutboundLocation = z
  .object({
    latitude: z.number().min(-90, "Must be -90 to 90.").max(90, "Must be -90 to 90."),
    longitude: z.number().min(-180, "Must be -180 to 180.").max(180, "Must be -180 to 180."),
    name: text(1000).optional(),
    address: text(1000).optional(),
  })
  .strict()
  .openapi("OutboundLocation");

// ----------------------------------------------------------------------------------------- sticker

export const OutboundSticker = z
  .object({
    id: Id.optional().openapi({ description: "Provider media id of an uploaded sticker. Exactly one of id or link." }),
    link: HttpsUrl.optional().openapi({ description: "https URL of a sticker file. Exactly one of id or link." }),
  })
  .strict()
  .superRefine((sticker, ctx) => exactlyOne(ctx, sticker, ["id", "link"], "Give exactly one of id or link."))
  .openapi("OutboundSticker", { description: "PLATFORM_A only." });
