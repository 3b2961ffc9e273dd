import type { InboundEvent, InboundParty } from "./types";
import { parseMessage } from "./platform-a-message";
import { type Obj, digits, guard, num, obj, objs, str, strOrNum, unixToIso } from "./platform-a-json";

/**
 * PLATFORM_A (Cloud API) webhook body → normalized inbound events. Pure and total: never throws;
 * malformed items are skipped, a foreign body yields []. Envelope:
 * `{object:"whatsapp_business_account", entry:[{id, changes:[{field, value:{metadata:{phone_number_id}, ...}}]}]}`.
 * - field "messages": `messages[]` → kind "message" (sender from the matching `contacts[]` entry),
 *   `statuses[]` → kind "status"; system number / user-id changes also yield a kind "identity_change".
 * - field "calls": `calls[]` → kind "call" (call_kind "call"), `statuses[]` → call_kind "status".
 * - field "smb_message_echoes": `message_echoes[]` → kind "echo" (sent from the business app).
 * - field "flows": a FLOW_STATUS_CHANGE → kind "flow_status" (entry.id is the business account; no metadata).
 * - field "message_template_status_update": a template review result → kind "template_status" (entry.id
 *   is the business account; `reason` "NONE" means none; a pause or disable explains itself in other_info).
 * - anything else (history, smb_app_state_sync, other template/account fields, ...) → nothing.
 */
export function normalizePlatformAWebhook(payload: unknown): InboundEvent[] {
  const body = obj(payload);
  if (!body || (body.object !== undefined && body.object !== "whatsapp_business_account")) return [];
  const events: InboundEvent[] = [];
  for (const entry of objs(body.entry)) {
    for (const change of objs(entry.changes)) {
      const value = obj(change.value);
      if (change.field === "flows") {
        flowsChange(value, str(entry.id), events);
        continue;
      }
      if (change.field === "message_template_status_update") {
        templateStatusChange(value, str(entry.id), events);
        continue;
      }
      const senderId = str(obj(value?.metadata)?.phone_number_id);
      if (!value || !senderId) continue;
      const field = str(change.field) ?? "messages";
      if (field === "messages") messagesChange(value, senderId, events);
      else if (field === "calls") callsChange(value, senderId, events);
      else if (field === "smb_message_echoes") echoesChange(value, senderId, events);
    }
  }
  return events;
}

const PLATFORM = "PLATFORM_A" as const;

function flowsChange(value: Obj | null, businessAccountId: string | null, out: InboundEvent[]): void {
  const flowId = str(value?.flow_id);
  const newStatus = str(value?.new_status);
  if (!value || value.event !== "FLOW_STATUS_CHANGE" || !flowId || !newStatus || !businessAccountId) return;
  out.push({
    platform: PLATFORM,
    senderId: businessAccountId,
    kind: "flow_status",
    flow_id: flowId,
    old_status: str(value.old_status),
    new_status: newStatus,
    message: str(value.message),
  });
}

function templateStatusChange(value: Obj | null, businessAccountId: string | null, out: InboundEvent[]): void {
  const templateId = strOrNum(value?.message_template_id);
  const event = str(value?.event);
  if (!value || !templateId || !event || !businessAccountId) return;
  const otherInfo = obj(value.other_info);
  const given = str(value.reason);
  const reason = given && given.toUpperCase() !== "NONE" ? given : (str(otherInfo?.description) ?? str(otherInfo?.title));
  out.push({ platform: PLATFORM, senderId: businessAccountId, kind: "template_status", template_id: templateId, event, reason });
}

const STATUSES = ["sent", "delivered", "read", "failed", "deleted"] as const;

const IDENTITY_CHANGES = new Set(["user_changed_number", "customer_changed_number", "user_changed_user_id"]);

type Status = (typeof STATUSES)[number];

function messagesChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  const contacts = objs(value.contacts);
  for (const m of objs(value.messages)) {
    guard(() => {
      const from = senderOf(m, contacts);
      const message = from && parseMessage(m);
      if (!from || !message) return;
      out.push({ platform: PLATFORM, senderId, kind: "message", from, message });
      const system = obj(m.system);
      if (system && message.system && IDENTITY_CHANGES.has(message.system.type)) {
        const current: InboundParty = {
          ...from,
          address: message.system.wa_id ?? from.address,
          user_id: message.system.user_id ?? from.user_id,
          parent_user_id: str(system.parent_user_id) ?? from.parent_user_id,
        };
        out.push({ platform: PLATFORM, senderId, kind: "identity_change", previous: from, current, timestamp: message.received_at });
      }
    });
  }
  for (const s of objs(value.statuses)) {
    guard(() => {
      if (s.type === "call") return callStatus(s, senderId, out);
      const id = str(s.id);
      const status = STATUSES.find((x): x is Status => x === s.status);
      const timestamp = unixToIso(s.timestamp);
      if (!id || !status || !timestamp) return;
      out.push({
        platform: PLATFORM,
        senderId,
        kind: "status",
        platform_message_id: id,
        status,
        timestamp,
        recipient_id: str(s.recipient_id),
        recipient_user_id: str(s.recipient_user_id),
        errors: objs(s.errors).map((e) => ({
          code: num(e.code) ?? 0,
          title: str(e.title) ?? "",
          message: str(e.message),
          error_data: e.error_data ?? null,
          href: str(e.href),
        })),
        raw: s,
      });
    });
  }
}

function callsChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  for (const c of objs(value.calls)) {
    guard(() => {
      const call_id = str(c.id);
      const event = str(c.event);
      const timestamp = unixToIso(c.timestamp);
      if (call_id && event && timestamp) {
        out.push({ platform: PLATFORM, senderId, kind: "call", call_kind: "call", call_id, event, timestamp, call: c });
      }
    });
  }
  for (const s of objs(value.statuses)) guard(() => callStatus(s, senderId, out));
}

function callStatus(s: Obj, senderId: string, out: InboundEvent[]): void {
  const call_id = str(s.id);
  const event = str(s.status);
  const timestamp = unixToIso(s.timestamp);
  if (call_id && event && timestamp) {
    out.push({ platform: PLATFORM, senderId, kind: "call", call_kind: "status", call_id, event, timestamp, call: s });
  }
}

function echoesChange(value: Obj, senderId: string, out: InboundEvent[]): void {
  for (const e of objs(value.message_echoes)) {
    guard(() => {
      const to: InboundParty = {
        address: digits(str(e.to)),
        user_id: str(e.to_user_id),
        parent_user_id: str(e.to_parent_user_id),
        username: null,
        name: null,
      };
      const message = parseMessage(e);
      if (message && (to.address || to.user_id)) out.push({ platform: PLATFORM, senderId, kind: "echo", to, message });
    });
  }
}

/** The sender: `from` / `from_user_id` on the message, completed by the matching `contacts[]` entry. */
function senderOf(m: Obj, contacts: Obj[]): InboundParty | null {
  const from = str(m.from);
  const fromUser = str(m.from_user_id);
  const contact =
    contacts.find((c) => from !== null && str(c.wa_id) === from) ??
    contacts.find((c) => fromUser !== null && str(c.user_id) === fromUser) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const profile = obj(contact?.profile);
  const party: InboundParty = {
    address: str(contact?.wa_id) ?? from,
    user_id: str(contact?.user_id) ?? fromUser,
    parent_user_id: str(contact?.parent_user_id) ?? str(m.from_parent_user_id),
    username: str(profile?.username) ?? str(contact?.username),
    name: str(profile?.name),
  };
  return party.address || party.user_id ? party : null;
}
