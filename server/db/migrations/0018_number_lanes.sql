ALTER TABLE "connections" ADD COLUMN "stop_reason" text;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "bot_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
-- One lane per number: an account's lane (its pacing and warm-up) becomes its personal number's, else its default's.
ALTER TABLE "sending_lanes" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
UPDATE "sending_lanes" l SET "connection_id" = (
  SELECT c."id" FROM "connections" c WHERE c."user_id" = l."user_id"
  ORDER BY (c."kind" = 'personal') DESC, c."is_default" DESC, c."created_at" LIMIT 1
);--> statement-breakpoint
DELETE FROM "sending_lanes" WHERE "connection_id" IS NULL;--> statement-breakpoint
ALTER TABLE "sending_lanes" DROP CONSTRAINT "sending_lanes_pkey";--> statement-breakpoint
ALTER TABLE "sending_lanes" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sending_lanes" ADD PRIMARY KEY ("connection_id");--> statement-breakpoint
ALTER TABLE "sending_lanes" ADD CONSTRAINT "sending_lanes_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "campaign_recipients_connection_queued_idx" ON "campaign_recipients" USING btree ("connection_id") WHERE status = 'queued' and connection_id is not null;
