/** Every event type of the spec's Events table: the webhook schema, the domain, the samples and the dashboard's filter read this one list. */
export const EVENT_TYPES = [
  "message.received",
  "message.status",
  "call.event",
  "flow.completed",
  "flow.status",
  "template.status",
  "participant.joined",
  "contact.identity.updated",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
