// The module's public surface: 19 importers across messaging, ingest, agents and the routes.
export type { ConversationRow } from "./row";
export { ensureConversation, ensureConversations } from "./ensure";
export { touchConversation, touchConversations } from "./touch";
export {
  insertInboundMessageTouchingConversation,
  insertOutboundMessageTouchingConversation,
  type InboundMessageInsert,
  type OutboundMessageInsert,
} from "./message-insert";
export { getConversation, listConversationMessages } from "./read";
export { listConversations } from "./list";
export { setHandoff } from "./handoff";
export { lastCustomerMessageAt, lastCustomerMessageAtSql, messagingWindow } from "./window";
