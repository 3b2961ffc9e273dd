// The module's public surface: 19 importers across messaging, ingest, agents and the routes.
export type { ConversationRow } from "./row";
export { conversationOfContactSql, ensureConversation, ensureConversations } from "./ensure";
export { touchConversations } from "./touch";
export {
  inboundMessageInsertSql,
  inboundMessageValues,
  insertInboundMessage,
  insertOutboundMessageTouchingConversation,
  insertOutboundMessageWithJob,
  type InboundMessageInsert,
  type OutboundMessageInsert,
} from "./message-insert";
export { getConversation, getConversationRowOrThrow, listConversationMessages } from "./read";
export { countConversations, listConversations } from "./list";
export { assignConversation } from "./assign";
export { inboxActorOf } from "./actor-identity";
export { aiCanAnswer, type AiAnswerFacts } from "./ai-can-answer";
export { setHandoff } from "./handoff";
export { lastCustomerMessageAt, lastCustomerMessageAtSql, messagingWindow } from "./window";
