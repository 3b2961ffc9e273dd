ALTER TABLE "broadcast_recipients" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "sender_lease_holder" text;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "sender_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "broadcasts_sending_lease" ON "broadcasts" USING btree ("sender_lease_until") WHERE "broadcasts"."status" = 'SENDING';