-- Sends and inbound messages recorded before numbers were connections (0016) name no number, so each
-- number's card (sent today, failures, replies) missed them while the header counted them. Each one
-- goes to the number recorded on its campaign, else the account's default (0019's rule for
-- conversations: a number not removed first, the default first, then the oldest). Only rows that
-- reached a number are filled: a queued row without one is waiting for a lane to claim it, and a
-- skipped one was never sent. Safe to run again: only rows still without a number change.
UPDATE "campaign_recipients" r SET "connection_id" = pick."id"
FROM (
  SELECT DISTINCT ON (c."id") c."id" AS "campaign_id", n."id"
  FROM "campaigns" c JOIN "connections" n ON n."user_id" = c."user_id" AND n."id" = ANY(c."connection_ids")
  ORDER BY c."id", (n."deleted_at" IS NULL) DESC, n."is_default" DESC, array_position(c."connection_ids", n."id")
) pick
WHERE r."campaign_id" = pick."campaign_id" AND r."connection_id" IS NULL
  AND r."status" IN ('sending', 'sent', 'delivered', 'read', 'failed');--> statement-breakpoint
UPDATE "campaign_recipients" r SET "connection_id" = d."id"
FROM (
  SELECT DISTINCT ON ("user_id") "user_id", "id" FROM "connections"
  ORDER BY "user_id", ("deleted_at" IS NULL) DESC, "is_default" DESC, "created_at"
) d
WHERE r."user_id" = d."user_id" AND r."connection_id" IS NULL
  AND r."status" IN ('sending', 'sent', 'delivered', 'read', 'failed');--> statement-breakpoint
-- An inbound message names the channel it came through: before 0016 an account had at most one number
-- of each kind, so a message goes to the account's number of that kind, else to its default.
UPDATE "whatsapp_inbound_messages" m SET "connection_id" = k."id"
FROM (
  SELECT DISTINCT ON ("user_id", "kind") "user_id", "kind", "id" FROM "connections"
  ORDER BY "user_id", "kind", ("deleted_at" IS NULL) DESC, "is_default" DESC, "created_at"
) k
WHERE m."user_id" = k."user_id" AND m."connection_id" IS NULL
  AND k."kind" = CASE WHEN m."channel" = 'cloud' THEN 'cloud' ELSE 'personal' END;--> statement-breakpoint
UPDATE "whatsapp_inbound_messages" m SET "connection_id" = d."id"
FROM (
  SELECT DISTINCT ON ("user_id") "user_id", "id" FROM "connections"
  ORDER BY "user_id", ("deleted_at" IS NULL) DESC, "is_default" DESC, "created_at"
) d
WHERE m."user_id" = d."user_id" AND m."connection_id" IS NULL;
