-- A conversation is (number, contact): each existing one goes to the number it recorded, else the account's default.
-- An account with conversations and no number at all gets its personal number first (as the connect route would add it).
INSERT INTO "connections" ("user_id", "kind", "label", "is_default")
SELECT DISTINCT v."user_id", 'personal', 'WhatsApp pessoal', true
FROM (SELECT "user_id" FROM "conversations" UNION SELECT "user_id" FROM "conversation_messages") v
WHERE NOT EXISTS (SELECT 1 FROM "connections" c WHERE c."user_id" = v."user_id");--> statement-breakpoint
UPDATE "conversations" v SET "connection_id" = (
  SELECT c."id" FROM "connections" c WHERE c."user_id" = v."user_id"
  ORDER BY (c."deleted_at" IS NULL) DESC, c."is_default" DESC, c."created_at" LIMIT 1
) WHERE v."connection_id" IS NULL;--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_user_id_phone_pk";--> statement-breakpoint
ALTER TABLE "conversations" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_phone_connection_id_pk" PRIMARY KEY("user_id","phone","connection_id");--> statement-breakpoint
ALTER TABLE "chatbot_turns" ADD COLUMN "inbound_by_number" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chatbot_turns" ADD COLUMN "previous_on_number" timestamp with time zone;--> statement-breakpoint
-- Each message joins its contact's conversation (one per contact until now), else the account's default number.
ALTER TABLE "conversation_messages" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
UPDATE "conversation_messages" m SET "connection_id" = v."connection_id"
FROM "conversations" v WHERE v."user_id" = m."user_id" AND v."phone" = m."phone";--> statement-breakpoint
UPDATE "conversation_messages" m SET "connection_id" = (
  SELECT c."id" FROM "connections" c WHERE c."user_id" = m."user_id"
  ORDER BY (c."deleted_at" IS NULL) DESC, c."is_default" DESC, c."created_at" LIMIT 1
) WHERE m."connection_id" IS NULL;--> statement-breakpoint
ALTER TABLE "conversation_messages" ALTER COLUMN "connection_id" SET NOT NULL;--> statement-breakpoint
DROP INDEX "conversation_messages_thread_idx";--> statement-breakpoint
CREATE INDEX "conversation_messages_thread_idx" ON "conversation_messages" USING btree ("user_id","phone","connection_id","created_at");
