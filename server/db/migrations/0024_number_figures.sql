CREATE TABLE "stats_number_hours" (
	"user_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"hour" timestamp NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"blocked" integer DEFAULT 0 NOT NULL,
	"inbound" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_number_hours_user_id_connection_id_hour_pk" PRIMARY KEY("user_id","connection_id","hour")
);
--> statement-breakpoint
ALTER TABLE "stats_number_hours" ADD CONSTRAINT "stats_number_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_opted_out_via_idx" ON "contacts" USING btree ("opted_out_via","opted_out_at") WHERE opted_out;--> statement-breakpoint
-- Each number's own figures per São Paulo hour (docs/decisions/027-number-figures-by-trigger.md),
-- kept as the dashboard's rollups are (0009): once per statement, over its transition tables, one
-- GROUP BY and one upsert of the sums taken in key order. The number's card then reads at most 25
-- rows per number however many messages the day had.
--
-- The failures that say the contact cannot receive from the number: BLOCK_REASONS (the pt-BR reason
-- of a refused send) and BLOCK_CODES ("<code> <title>" from a Cloud API webhook) of
-- server/sending/failures.ts; a test checks they agree.
CREATE FUNCTION stats_is_block(error text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(error IN (
    'Mensagem não entregue: o número não tem WhatsApp ou não pode receber esta mensagem.',
    'O contato pediu ao WhatsApp para não receber mensagens de marketing desta empresa.')
  OR split_part(error, ' ', 1) IN ('131026', '131050'), false) $$;
--> statement-breakpoint
-- A report line counts as sent in the hour of its sent_at (whatever its later status), and as failed
-- (and blocked) in the hour of its failed_at while it is failed; lines without a number count
-- nowhere. An update takes the old version out and puts the new one in (summed per number and hour,
-- a change within the same buckets nets out): claims, requeues, leases and provider ids change
-- nothing counted and find nothing to sum, and a receipt (sent → delivered) nets out.
CREATE FUNCTION stats_number_recipients_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_number_hours AS h (user_id, connection_id, hour, sent, failed, blocked)
  SELECT user_id, connection_id, hour, sum(sent), sum(failed), sum(blocked) FROM (
    SELECT user_id, connection_id, stats_hour(sent_at) AS hour, 1 AS sent, 0 AS failed, 0 AS blocked FROM new_rows
    WHERE connection_id IS NOT NULL AND sent_at IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(failed_at), 0, 1, stats_is_block(error)::int FROM new_rows
    WHERE connection_id IS NOT NULL AND status = 'failed' AND failed_at IS NOT NULL
  ) c
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, connection_id, hour) DO UPDATE SET sent = h.sent + excluded.sent,
    failed = h.failed + excluded.failed, blocked = h.blocked + excluded.blocked;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_number_recipients_inserted AFTER INSERT ON campaign_recipients REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_number_recipients_inserted();
--> statement-breakpoint
CREATE FUNCTION stats_number_recipients_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_number_hours AS h (user_id, connection_id, hour, sent, failed, blocked)
  SELECT user_id, connection_id, hour, sum(sent), sum(failed), sum(blocked) FROM (
    SELECT user_id, connection_id, stats_hour(sent_at) AS hour, -1 AS sent, 0 AS failed, 0 AS blocked FROM old_rows
    WHERE connection_id IS NOT NULL AND sent_at IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(failed_at), 0, -1, -stats_is_block(error)::int FROM old_rows
    WHERE connection_id IS NOT NULL AND status = 'failed' AND failed_at IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(sent_at) AS hour, 1 AS sent, 0 AS failed, 0 AS blocked FROM new_rows
    WHERE connection_id IS NOT NULL AND sent_at IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(failed_at), 0, 1, stats_is_block(error)::int FROM new_rows
    WHERE connection_id IS NOT NULL AND status = 'failed' AND failed_at IS NOT NULL
  ) c
  GROUP BY 1, 2, 3
  HAVING (sum(sent), sum(failed), sum(blocked)) <> (0, 0, 0)
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, connection_id, hour) DO UPDATE SET sent = h.sent + excluded.sent,
    failed = h.failed + excluded.failed, blocked = h.blocked + excluded.blocked;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_number_recipients_updated AFTER UPDATE ON campaign_recipients
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_number_recipients_updated();
--> statement-breakpoint
-- Messages received are deleted only with their account. The app never updates them; a data
-- migration that gives them a number (0022) is counted by the update trigger.
CREATE FUNCTION stats_number_inbound_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_number_hours AS h (user_id, connection_id, hour, inbound)
  SELECT user_id, connection_id, stats_hour(received_at), count(*) FROM new_rows WHERE connection_id IS NOT NULL
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, connection_id, hour) DO UPDATE SET inbound = h.inbound + excluded.inbound;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_number_inbound_inserted AFTER INSERT ON whatsapp_inbound_messages REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_number_inbound_inserted();
--> statement-breakpoint
CREATE FUNCTION stats_number_inbound_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_number_hours AS h (user_id, connection_id, hour, inbound)
  SELECT user_id, connection_id, hour, sum(sign) FROM (
    SELECT user_id, connection_id, stats_hour(received_at) AS hour, -1 AS sign FROM old_rows WHERE connection_id IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(received_at), 1 FROM new_rows WHERE connection_id IS NOT NULL
  ) m
  GROUP BY 1, 2, 3
  HAVING sum(sign) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (user_id, connection_id, hour) DO UPDATE SET inbound = h.inbound + excluded.inbound;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_number_inbound_updated AFTER UPDATE ON whatsapp_inbound_messages
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_number_inbound_updated();
--> statement-breakpoint
-- The figures of what is already stored.
INSERT INTO stats_number_hours (user_id, connection_id, hour, sent, failed, blocked, inbound)
SELECT user_id, connection_id, hour, sum(sent), sum(failed), sum(blocked), sum(inbound) FROM (
  SELECT user_id, connection_id, hour, sent, failed, blocked, 0 AS inbound FROM (
    SELECT user_id, connection_id, stats_hour(sent_at) AS hour, 1 AS sent, 0 AS failed, 0 AS blocked FROM campaign_recipients
    WHERE connection_id IS NOT NULL AND sent_at IS NOT NULL
    UNION ALL
    SELECT user_id, connection_id, stats_hour(failed_at), 0, 1, stats_is_block(error)::int FROM campaign_recipients
    WHERE connection_id IS NOT NULL AND status = 'failed' AND failed_at IS NOT NULL
  ) r
  UNION ALL
  SELECT user_id, connection_id, stats_hour(received_at), 0, 0, 0, 1
  FROM whatsapp_inbound_messages WHERE connection_id IS NOT NULL
) x
GROUP BY 1, 2, 3;
