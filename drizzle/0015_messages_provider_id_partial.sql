DROP INDEX "messages_channel_platform_id";--> statement-breakpoint
CREATE UNIQUE INDEX "messages_channel_platform_id" ON "messages" USING btree ("channel_id","platform_message_id") WHERE "messages"."platform_message_id" is not null;--> statement-breakpoint
-- An outbound message is rewritten three or four times after its insert (the provider's id, then sent,
-- delivered, read). Room left in each page lets those versions stay on it as heap-only updates, which
-- add no index entries; drizzle-kit does not model storage parameters, so this line is kept by hand.
ALTER TABLE "messages" SET (fillfactor = 75);
