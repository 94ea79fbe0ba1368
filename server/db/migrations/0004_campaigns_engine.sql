CREATE TABLE "media_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"type" text DEFAULT 'contacts' NOT NULL,
	"enable_message" boolean DEFAULT true NOT NULL,
	"has_image" boolean DEFAULT false NOT NULL,
	"image_url" text DEFAULT '' NOT NULL,
	"image_file" text DEFAULT '' NOT NULL,
	"upload_id" uuid,
	"content" text NOT NULL,
	"content_type" text DEFAULT 'text' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sending_lanes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"owner" text,
	"lease_until" timestamp with time zone,
	"next_send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"warmup_started_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "campaign_recipients" DROP CONSTRAINT "campaign_recipients_contact_id_contacts_id_fk";
--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "kind" text DEFAULT 'contact' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "target_tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_name" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_language" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_variables" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "waiting_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_messages" ADD CONSTRAINT "saved_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sending_lanes" ADD CONSTRAINT "sending_lanes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_uploads_user_idx" ON "media_uploads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "saved_messages_user_idx" ON "saved_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_recipients_campaign_status_idx" ON "campaign_recipients" USING btree ("campaign_id","status");--> statement-breakpoint
CREATE INDEX "campaign_recipients_due_idx" ON "campaign_recipients" USING btree ("user_id","due_at") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "campaign_recipients_message_idx" ON "campaign_recipients" USING btree ("provider_message_id") WHERE provider_message_id is not null;--> statement-breakpoint
CREATE INDEX "campaign_recipients_claimed_idx" ON "campaign_recipients" USING btree ("lease_until") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "campaign_recipients_user_sent_idx" ON "campaign_recipients" USING btree ("user_id","sent_at") WHERE sent_at is not null;--> statement-breakpoint
CREATE INDEX "campaigns_active_idx" ON "campaigns" USING btree ("status","scheduled_at") WHERE status in ('scheduled', 'sending', 'in_progress');