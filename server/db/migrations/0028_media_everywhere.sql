ALTER TABLE "auto_replies" ADD COLUMN "media_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "auto_replies" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "auto_replies" ADD COLUMN "contact_card" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "contact_card" jsonb;--> statement-breakpoint
ALTER TABLE "saved_messages" ADD COLUMN "media_url" text;