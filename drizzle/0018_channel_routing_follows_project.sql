ALTER TABLE "channels" ALTER COLUMN "routing_mode" DROP NOT NULL;--> statement-breakpoint
-- Until now an AGENT project handed every channel to its agent whatever the channel's own mode; from
-- now on a dedicated channel's own mode wins. Those channels follow their project instead, so inbound
-- goes where it went before.
UPDATE "channels" SET "routing_mode" = NULL
FROM "projects"
WHERE "channels"."is_sandbox" = false
  AND "projects"."routing_mode" = 'AGENT'
  AND ("projects"."id" = "channels"."project_id" OR ("channels"."project_id" IS NULL AND "projects"."channel_id" = "channels"."id"));
