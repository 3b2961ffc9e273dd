// The stored row, shared by the verbs and the serializer without importing the module's index.
import type { conversations } from "@/lib/db/schema";

export type ConversationRow = typeof conversations.$inferSelect;
