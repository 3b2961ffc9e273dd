CREATE TABLE "business_agent_connectors" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"business_agent_id" text NOT NULL,
	"meta_connector_id" text,
	"config_key" text,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"config" jsonb,
	"sealed_secret" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_agent_tools" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"business_agent_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"meta_tool_id" text,
	"name" text NOT NULL,
	"description" text,
	"backing_type" text NOT NULL,
	"backing_flow_id" text,
	"backing_function_id" text,
	"input_schema" jsonb,
	"config" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_agents" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"meta_agent_id" text,
	"status" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"skills" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"eligibility" jsonb,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thread_control_states" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"business_agent_id" text,
	"owner" text NOT NULL,
	"reason" text,
	"meta_thread_id" text,
	"meta_result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "business_agent_connectors" ADD CONSTRAINT "business_agent_connectors_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agent_connectors" ADD CONSTRAINT "business_agent_connectors_business_agent_id_business_agents_id_fk" FOREIGN KEY ("business_agent_id") REFERENCES "public"."business_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agent_tools" ADD CONSTRAINT "business_agent_tools_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agent_tools" ADD CONSTRAINT "business_agent_tools_business_agent_id_business_agents_id_fk" FOREIGN KEY ("business_agent_id") REFERENCES "public"."business_agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agent_tools" ADD CONSTRAINT "business_agent_tools_connector_id_business_agent_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."business_agent_connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agents" ADD CONSTRAINT "business_agents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_agents" ADD CONSTRAINT "business_agents_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_control_states" ADD CONSTRAINT "thread_control_states_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_control_states" ADD CONSTRAINT "thread_control_states_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_agent_connectors_agent" ON "business_agent_connectors" USING btree ("project_id","business_agent_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_agent_tools_agent_name" ON "business_agent_tools" USING btree ("business_agent_id","name");--> statement-breakpoint
CREATE INDEX "business_agent_tools_connector" ON "business_agent_tools" USING btree ("connector_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_agents_project_channel" ON "business_agents" USING btree ("project_id","channel_id");--> statement-breakpoint
CREATE INDEX "business_agents_project_id" ON "business_agents" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "thread_control_states_thread" ON "thread_control_states" USING btree ("project_id","channel_id","contact_id");