CREATE TABLE "flow_version_copies" (
	"flow_id" text NOT NULL,
	"version" integer NOT NULL,
	"meta_waba_id" text NOT NULL,
	"meta_flow_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "flow_version_copies_flow_id_version_meta_waba_id_pk" PRIMARY KEY("flow_id","version","meta_waba_id")
);
--> statement-breakpoint
ALTER TABLE "flow_version_copies" ADD CONSTRAINT "flow_version_copies_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;