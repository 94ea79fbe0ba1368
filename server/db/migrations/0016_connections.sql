CREATE TABLE "connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"driver" text,
	"active" boolean DEFAULT false NOT NULL,
	"phone_number" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"restricted_code" text,
	"restricted_at" timestamp with time zone,
	"logged_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connections_user_idx" ON "connections" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connections_default_idx" ON "connections" USING btree ("user_id") WHERE is_default and deleted_at is null;--> statement-breakpoint
-- Each account's personal number becomes its first connection; the default when its channel is the personal one.
INSERT INTO "connections" ("user_id", "kind", "label", "is_default", "driver", "active", "phone_number", "created_at", "updated_at")
SELECT c."user_id", 'personal', 'WhatsApp pessoal', coalesce(s."channel", 'personal') <> 'cloud', c."driver", c."active", c."phone_number", c."updated_at", c."updated_at"
FROM "whatsapp_connections" c LEFT JOIN "account_settings" s ON s."user_id" = c."user_id";--> statement-breakpoint
-- Each account's Cloud API number too; the default when its channel is the Cloud API, or when it has no personal number.
INSERT INTO "connections" ("user_id", "kind", "label", "is_default", "phone_number", "created_at", "updated_at")
SELECT b."user_id", 'cloud', 'API oficial',
  coalesce(s."channel", 'personal') = 'cloud' OR NOT EXISTS (SELECT 1 FROM "whatsapp_connections" c WHERE c."user_id" = b."user_id"),
  b."display_phone_number", b."created_at", b."updated_at"
FROM "whatsapp_business_accounts" b LEFT JOIN "account_settings" s ON s."user_id" = b."user_id";--> statement-breakpoint
ALTER TABLE "whatsapp_business_accounts" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
UPDATE "whatsapp_business_accounts" b SET "connection_id" = c."id" FROM "connections" c WHERE c."user_id" = b."user_id" AND c."kind" = 'cloud';--> statement-breakpoint
ALTER TABLE "whatsapp_business_accounts" DROP CONSTRAINT "whatsapp_business_accounts_pkey";--> statement-breakpoint
ALTER TABLE "whatsapp_business_accounts" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_business_accounts" ADD PRIMARY KEY ("connection_id");--> statement-breakpoint
-- Baileys keys belong to a number now.
ALTER TABLE "whatsapp_auth_keys" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
UPDATE "whatsapp_auth_keys" k SET "connection_id" = c."id" FROM "connections" c WHERE c."user_id" = k."user_id" AND c."kind" = 'personal';--> statement-breakpoint
DELETE FROM "whatsapp_auth_keys" WHERE "connection_id" IS NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" DROP CONSTRAINT "whatsapp_auth_keys_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" ADD CONSTRAINT "whatsapp_auth_keys_connection_id_key_pk" PRIMARY KEY("connection_id","key");--> statement-breakpoint
-- Leases are per number; the current ones are taken again within seconds by the running processes.
DELETE FROM "whatsapp_connection_leases";--> statement-breakpoint
ALTER TABLE "whatsapp_connection_leases" DROP CONSTRAINT "whatsapp_connection_leases_pkey";--> statement-breakpoint
ALTER TABLE "whatsapp_connection_leases" ADD COLUMN "connection_id" uuid PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "connection_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapp_connection_leases" ADD CONSTRAINT "whatsapp_connection_leases_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_auth_keys" ADD CONSTRAINT "whatsapp_auth_keys_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_business_accounts" ADD CONSTRAINT "whatsapp_business_accounts_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_inbound_messages" ADD CONSTRAINT "whatsapp_inbound_messages_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_business_accounts_user_idx" ON "whatsapp_business_accounts" USING btree ("user_id");