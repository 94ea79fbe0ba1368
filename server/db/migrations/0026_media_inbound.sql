CREATE TABLE "media_chunks" (
	"key" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "media_chunks_key_seq_pk" PRIMARY KEY("key","seq")
);
--> statement-breakpoint
ALTER TABLE "media_uploads" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "media_id" uuid;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "location" jsonb;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "contact_card" jsonb;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "reaction" jsonb;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "unsupported" text;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "kind" text DEFAULT 'image' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "origin" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "state" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "duration_seconds" integer;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "voice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "source" jsonb;--> statement-breakpoint
ALTER TABLE "media_uploads" ADD COLUMN "error" text;