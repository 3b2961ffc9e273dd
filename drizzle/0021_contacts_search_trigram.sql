-- The trigram operator classes come from pg_trgm (a trusted contrib extension since Postgres 13: the
-- database owner may create it; PGlite loads it in lib/ports/db/open.ts). drizzle-kit does not model
-- extensions, so this line is kept by hand.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "contacts_name_trgm" ON "contacts" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_phone_trgm" ON "contacts" USING gin ("phone" gin_trgm_ops);