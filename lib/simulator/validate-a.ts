import { isRecord } from "@/lib/simulator/http";

/**
 * Checks a Cloud API send body the way the provider does, closely enough that a body the simulator
 * accepts is one the provider accepts. Returns the provider-style detail text of the first problem,
 * or null when the body is valid. Limits: text.body 1..4096; caption ≤1024; filename ≤240;
 * interactive body ≤1024, header text ≤60, footer ≤60; ≤3 reply buttons, titles ≤20, ids ≤256;
 * list button ≤20, ≤10 sections, ≤10 rows in all, row title ≤24, id ≤200, description ≤72;
 * cta_url display_text ≤20 and an http(s) url; flow: see flowParameters; media by https link or id (exactly one).
 */
const CONTENT_TYPES = ["text", "image", "audio", "video", "document", "sticker", "location", "contacts", "interactive", "reaction", "template"] as const;

const MEDIA_TYPES = new Set(["image", "audio", "video", "document", "sticker"]);

type Check = string | null;

function str(value: unknown): value is string {
  return typeof value === "string";
}

function length(value: string): number {
  return Array.from(value).length;
}

function textField(value: unknown, name: string, min: number, max: number): Check {
  if (!str(value)) return `Param ${name} is required and must be a string.`;
  const n = length(value);
  if (n < min) return `Param ${name} must be at least ${min} character${min === 1 ? "" : "s"} long.`;
  if (n > max) return `Param ${name} must be at most ${max} characters long.`;
  return null;
}

function optionalText(value: unknown, name: string, max: number): Check {
  return value === undefined ? null : textField(value, name, 1, max);
}

function isHttpUrl(value: string, httpsOnly: boolean): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (!httpsOnly && url.protocol === "http:");
  } catch {
    return false;
  }
}

function mediaObject(value: unknown, type: string): Check {
  if (!isRecord(value)) return `Param ${type} must be an object.`;
  const hasId = value.id !== undefined;
  const hasLink = value.link !== undefined;
  if (hasId === hasLink) return `Param ${type} must have exactly one of 'id' or 'link'.`;
  if (hasId && (!str(value.id) || value.id === "")) return `Param ${type}['id'] must be a non-empty string.`;
  if (hasLink && (!str(value.link) || !isHttpUrl(value.link, true))) return `Param ${type}['link'] must be a valid https URL.`;
  if (value.caption !== undefined) {
    if (type === "audio" || type === "sticker") return `Param ${type}['caption'] is not supported for ${type} messages.`;
    const c = textField(value.caption, `${type}['caption']`, 1, 1024);
    if (c) return c;
  }
  if (value.filename !== undefined) {
    if (type !== "document") return `Param ${type}['filename'] is only supported for document messages.`;
    const c = textField(value.filename, "document['filename']", 1, 240);
    if (c) return c;
  }
  return null;
}

function location(value: unknown): Check {
  if (!isRecord(value)) return "Param location must be an object.";
  const lat = Number(value.latitude);
  const lng = Number(value.longitude);
  if (value.latitude === undefined || !Number.isFinite(lat) || lat < -90 || lat > 90) return "Param location['latitude'] must be a number between -90 and 90.";
  if (value.longitude === undefined || !Number.isFinite(lng) || lng < -180 || lng > 180)
    return "Param location['longitude'] must be a number between -180 and 180.";
  return optionalText(value.name, "location['name']", 1000) ?? optionalText(value.address, "location['address']", 1000);
}

function contacts(value: unknown): Check {
  if (!Array.isArray(value) || value.length === 0) return "Param contacts must be a non-empty array.";
  if (value.length > 20) return "Param contacts must have at most 20 items.";
  for (const [i, card] of value.entries()) {
    if (!isRecord(card) || !isRecord(card.name)) return `Param contacts[${i}]['name'] is required.`;
    const c = textField(card.name.formatted_name, `contacts[${i}]['name']['formatted_name']`, 1, 1000);
    if (c) return c;
  }
  return null;
}

function reaction(value: unknown): Check {
  if (!isRecord(value)) return "Param reaction must be an object.";
  if (!str(value.message_id) || value.message_id === "") return "Param reaction['message_id'] is required.";
  if (!str(value.emoji)) return "Param reaction['emoji'] is required and must be a string.";
  return null;
}

function template(value: unknown): Check {
  if (!isRecord(value)) return "Param template must be an object.";
  const c = textField(value.name, "template['name']", 1, 512);
  if (c) return c;
  if (!isRecord(value.language) || !str(value.language.code) || value.language.code === "") return "Param template['language']['code'] is required.";
  if (value.components !== undefined && (!Array.isArray(value.components) || !value.components.every(isRecord))) {
    return "Param template['components'] must be an array of objects.";
  }
  return null;
}

function interactiveHeader(value: unknown, interactiveType: string): Check {
  if (value === undefined) return null;
  if (!isRecord(value) || !str(value.type)) return "Param interactive['header']['type'] is required.";
  if (value.type === "text") return textField(value.text, "interactive['header']['text']", 1, 60);
  if (interactiveType === "list" || interactiveType === "flow") return `Param interactive['header'] must be of type text for ${interactiveType} messages.`;
  if (value.type === "image" || value.type === "video" || value.type === "document") {
    return mediaObject(value[value.type], `interactive['header']['${value.type}']`);
  }
  return "Param interactive['header']['type'] must be one of text, image, video, document.";
}

function buttons(action: Record<string, unknown>): Check {
  const list = action.buttons;
  if (!Array.isArray(list) || list.length < 1 || list.length > 3) return "Param interactive['action']['buttons'] must have 1 to 3 items.";
  const ids = new Set<string>();
  const titles = new Set<string>();
  for (const [i, button] of list.entries()) {
    if (!isRecord(button) || button.type !== "reply" || !isRecord(button.reply))
      return `Param interactive['action']['buttons'][${i}] must be {type:'reply', reply:{id, title}}.`;
    const c =
      textField(button.reply.id, `interactive['action']['buttons'][${i}]['reply']['id']`, 1, 256) ??
      textField(button.reply.title, `interactive['action']['buttons'][${i}]['reply']['title']`, 1, 20);
    if (c) return c;
    const { id, title } = button.reply as { id: string; title: string };
    if (ids.has(id)) return "Buttons must have unique ids.";
    if (titles.has(title)) return "Buttons must have unique titles.";
    ids.add(id);
    titles.add(title);
  }
  return null;
}

function listAction(action: Record<string, unknown>): Check {
  const c = textField(action.button, "interactive['action']['button']", 1, 20);
  if (c) return c;
  const sections = action.sections;
  if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10) return "Param interactive['action']['sections'] must have 1 to 10 items.";
  let rows = 0;
  const ids = new Set<string>();
  for (const [s, section] of sections.entries()) {
    if (!isRecord(section)) return `Param interactive['action']['sections'][${s}] must be an object.`;
    if (sections.length > 1 && section.title === undefined)
      return `Param interactive['action']['sections'][${s}]['title'] is required when there is more than one section.`;
    const t = optionalText(section.title, `interactive['action']['sections'][${s}]['title']`, 24);
    if (t) return t;
    if (!Array.isArray(section.rows) || section.rows.length === 0) return `Param interactive['action']['sections'][${s}]['rows'] must be a non-empty array.`;
    for (const [r, row] of section.rows.entries()) {
      const name = `interactive['action']['sections'][${s}]['rows'][${r}]`;
      if (!isRecord(row)) return `Param ${name} must be an object.`;
      const rc =
        textField(row.id, `${name}['id']`, 1, 200) ??
        textField(row.title, `${name}['title']`, 1, 24) ??
        optionalText(row.description, `${name}['description']`, 72);
      if (rc) return rc;
      if (ids.has(row.id as string)) return "Rows must have unique ids.";
      ids.add(row.id as string);
      rows += 1;
    }
  }
  if (rows > 10) return "The total number of rows across sections must be at most 10.";
  return null;
}

// Pictographs, flags and keycaps: the provider takes no emoji in a flow_cta.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u{20E3}/u;

/**
 * An interactive Flow message's action.parameters: flow_message_version "3"; flow_token a non-empty
 * string when given; exactly one of flow_id / flow_name; flow_cta 1..20 characters without emoji;
 * flow_action navigate (the default, with flow_action_payload.screen and, if any, a non-empty data
 * object) or data_exchange (no payload); mode draft | published. Whether the flow exists and may be
 * sent is checked against the flows themselves (flows-send.ts).
 */
function flowParameters(parameters: Record<string, unknown>): Check {
  const name = (key: string) => `interactive['action']['parameters']['${key}']`;
  if (parameters.flow_message_version !== "3") return `Param ${name("flow_message_version")} must be '3'.`;
  if (parameters.flow_token !== undefined && (!str(parameters.flow_token) || parameters.flow_token === ""))
    return `Param ${name("flow_token")} must be a non-empty string.`;
  const byId = parameters.flow_id !== undefined;
  if (byId === (parameters.flow_name !== undefined)) return `Exactly one of ${name("flow_id")} or ${name("flow_name")} is required.`;
  const ref = byId ? textField(parameters.flow_id, name("flow_id"), 1, 256) : textField(parameters.flow_name, name("flow_name"), 1, 200);
  if (ref) return ref;
  const cta = textField(parameters.flow_cta, name("flow_cta"), 1, 20);
  if (cta) return cta;
  if (EMOJI.test(parameters.flow_cta as string)) return `Param ${name("flow_cta")} must not contain emoji.`;
  if (parameters.mode !== undefined && parameters.mode !== "draft" && parameters.mode !== "published")
    return `Param ${name("mode")} must be draft or published.`;
  const flowAction = parameters.flow_action ?? "navigate";
  if (flowAction === "data_exchange") {
    return parameters.flow_action_payload === undefined ? null : `Param ${name("flow_action_payload")} must be omitted for data_exchange.`;
  }
  if (flowAction !== "navigate") return `Param ${name("flow_action")} must be navigate or data_exchange.`;
  const payload = parameters.flow_action_payload;
  if (!isRecord(payload)) return `Param ${name("flow_action_payload")} is required for navigate.`;
  const screen = textField(payload.screen, "interactive['action']['parameters']['flow_action_payload']['screen']", 1, 200);
  if (screen) return screen;
  if (payload.data !== undefined && (!isRecord(payload.data) || Object.keys(payload.data).length === 0)) {
    return "Param interactive['action']['parameters']['flow_action_payload']['data'] must be a non-empty object.";
  }
  return null;
}

function interactive(value: unknown): Check {
  if (!isRecord(value) || !str(value.type)) return "Param interactive['type'] is required.";
  const type = value.type;
  const known = ["button", "list", "cta_url", "location_request_message", "request_contact_info", "flow"];
  if (!known.includes(type)) return `Param interactive['type'] must be one of ${known.join(", ")}.`;
  if (!isRecord(value.body)) return "Param interactive['body'] is required.";
  const body = textField(value.body.text, "interactive['body']['text']", 1, 1024);
  if (body) return body;
  const frame =
    interactiveHeader(value.header, type) ??
    (value.footer === undefined
      ? null
      : isRecord(value.footer)
        ? textField(value.footer.text, "interactive['footer']['text']", 1, 60)
        : "Param interactive['footer'] must be an object.");
  if (frame) return frame;
  if (!isRecord(value.action)) return "Param interactive['action'] is required.";
  const action = value.action;
  switch (type) {
    case "button":
      return buttons(action);
    case "list":
      return listAction(action);
    case "cta_url": {
      if (action.name !== "cta_url" || !isRecord(action.parameters))
        return "Param interactive['action'] must be {name:'cta_url', parameters:{display_text, url}}.";
      const c = textField(action.parameters.display_text, "interactive['action']['parameters']['display_text']", 1, 20);
      if (c) return c;
      if (!str(action.parameters.url) || !isHttpUrl(action.parameters.url, false))
        return "Param interactive['action']['parameters']['url'] must be a valid http(s) URL.";
      return null;
    }
    case "location_request_message":
      return action.name === "send_location" ? null : "Param interactive['action']['name'] must be send_location.";
    case "request_contact_info":
      return action.name === "request_contact_info" ? null : "Param interactive['action']['name'] must be request_contact_info.";
    case "flow":
      return action.name === "flow" && isRecord(action.parameters)
        ? flowParameters(action.parameters)
        : "Param interactive['action'] must be {name:'flow', parameters:{...}}.";
  }
  return null;
}

/** Validates a whole send body; returns the detail of the first problem or null. */
export function validatePlatformABody(body: unknown): Check {
  if (!isRecord(body)) return "The request body must be a JSON object.";
  if (body.messaging_product !== "whatsapp") return "Param messaging_product is required and must be 'whatsapp'.";
  if (body.recipient_type !== undefined && body.recipient_type !== "individual") return "Param recipient_type must be 'individual'.";
  if (!str(body.to) || !/^\+?\d{5,20}$/.test(body.to)) return "Param to must be the recipient's phone number (digits, optional leading +).";
  const type = body.type ?? "text";
  if (!str(type) || !(CONTENT_TYPES as readonly string[]).includes(type)) return `Param type must be one of ${CONTENT_TYPES.join(", ")}.`;
  const present = CONTENT_TYPES.filter((t) => body[t] !== undefined);
  if (present.length !== 1 || present[0] !== type) return `The message must have exactly one content object, named by type ('${type}').`;
  if (body.context !== undefined && (!isRecord(body.context) || !str(body.context.message_id) || body.context.message_id === "")) {
    return "Param context['message_id'] must be a non-empty string.";
  }
  const content = body[type];
  if (MEDIA_TYPES.has(type)) return mediaObject(content, type);
  switch (type) {
    case "text": {
      if (!isRecord(content)) return "Param text must be an object.";
      if (content.preview_url !== undefined && typeof content.preview_url !== "boolean") return "Param text['preview_url'] must be a boolean.";
      return textField(content.body, "text['body']", 1, 4096);
    }
    case "location":
      return location(content);
    case "contacts":
      return contacts(content);
    case "interactive":
      return interactive(content);
    case "reaction":
      return reaction(content);
    case "template":
      return template(content);
  }
  return null;
}
