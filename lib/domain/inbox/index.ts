// The team inbox's own rows (notes, saved replies, read state); assignment and the views live with the conversation (lib/domain/conversations).
export { addNote, listNotes } from "./notes";
export { createSavedReply, deleteSavedReply, getSavedReply, listSavedReplies, renderSavedReplyFor, updateSavedReply } from "./saved-replies";
export { markConversationRead } from "./reads";
export { renderSavedReply } from "./render";
