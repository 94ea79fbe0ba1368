CREATE TABLE "conversation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"direction" text NOT NULL,
	"source" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"image_url" text,
	"status" text NOT NULL,
	"failure_reason" text,
	"provider_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"contact_id" uuid,
	"name" text,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_text" text DEFAULT '' NOT NULL,
	"last_direction" text DEFAULT 'in' NOT NULL,
	"last_inbound_at" timestamp with time zone,
	"unread" integer DEFAULT 0 NOT NULL,
	"taken_over_until" timestamp with time zone,
	"out_of_hours_day" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_user_id_phone_pk" PRIMARY KEY("user_id","phone")
);
--> statement-breakpoint
ALTER TABLE "bot_configs" ADD COLUMN "out_of_hours_message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_configs" ADD COLUMN "ai_instructions" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_configs" ADD COLUMN "handoff_minutes" integer DEFAULT 120 NOT NULL;--> statement-breakpoint
ALTER TABLE "bot_events" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_messages_thread_idx" ON "conversation_messages" USING btree ("user_id","phone","created_at");--> statement-breakpoint
CREATE INDEX "conversation_messages_provider_idx" ON "conversation_messages" USING btree ("provider_message_id") WHERE provider_message_id is not null;--> statement-breakpoint
CREATE INDEX "conversations_user_last_idx" ON "conversations" USING btree ("user_id","last_message_at");