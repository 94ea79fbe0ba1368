-- The rollups of 0006 counted each row in its own trigger call: a statement writing 100,000 report
-- lines of one hour updated that hour's counter row 100,000 times (each update walking the versions
-- the previous ones left: quadratic, 138 s for a 4.6 MB backup on the embedded database, which holds
-- the server's thread meanwhile). Every rollup trigger now runs once per statement over its
-- transition tables: one GROUP BY and one upsert of the sums, whatever the number of rows. The
-- counting rules are unchanged (stats_hour, stats_recipient_hour, stats_is_bot_reply; stats_rebuild
-- still recomputes everything). PostgreSQL allows transition tables only on triggers of one event
-- and without a column list: one trigger per event, each filtering the rows that matter itself.
-- Upserts take their counter rows in key order (ORDER BY), so two statements never deadlock on them.
DROP TRIGGER stats_recipient_inserted ON campaign_recipients;
--> statement-breakpoint
DROP TRIGGER stats_recipient_updated ON campaign_recipients;
--> statement-breakpoint
DROP FUNCTION stats_recipient_changed();
--> statement-breakpoint
DROP TRIGGER stats_bot_reply_inserted ON bot_events;
--> statement-breakpoint
DROP FUNCTION stats_bot_reply_inserted();
--> statement-breakpoint
DROP TRIGGER stats_conversation_message_inserted ON conversation_messages;
--> statement-breakpoint
DROP TRIGGER stats_conversation_message_sent ON conversation_messages;
--> statement-breakpoint
DROP FUNCTION stats_conversation_message();
--> statement-breakpoint
DROP TRIGGER stats_contact_changed ON contacts;
--> statement-breakpoint
DROP FUNCTION stats_contact_changed();
--> statement-breakpoint
-- Report lines written already sent or failed (a restore; starting a campaign writes them queued or
-- skipped, which count nowhere).
CREATE FUNCTION stats_recipients_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_campaign_hours AS h (campaign_id, hour, user_id, sent, delivered, read, failed)
  SELECT campaign_id, hour, user_id,
    count(*) FILTER (WHERE status IN ('sent', 'delivered', 'read')),
    count(*) FILTER (WHERE status IN ('delivered', 'read')),
    count(*) FILTER (WHERE status = 'read'),
    count(*) FILTER (WHERE status = 'failed')
  FROM (SELECT campaign_id, user_id, status, stats_recipient_hour(status, sent_at, failed_at, created_at) AS hour
        FROM new_rows WHERE status IN ('sent', 'delivered', 'read', 'failed')) r
  GROUP BY campaign_id, hour, user_id
  ORDER BY campaign_id, hour
  ON CONFLICT (campaign_id, hour) DO UPDATE SET sent = h.sent + excluded.sent,
    delivered = h.delivered + excluded.delivered, read = h.read + excluded.read, failed = h.failed + excluded.failed;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The triggers keep their names (the metrics bench turns them off by name to time them).
CREATE TRIGGER stats_recipient_inserted AFTER INSERT ON campaign_recipients REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_recipients_inserted();
--> statement-breakpoint
-- An update takes each line's old version out of its bucket and puts its new version in: summed
-- per campaign and hour, a line whose step moved on within its hour nets its change, and one whose
-- counted fields did not change nets nothing. No join of old and new versions is needed, and the
-- statements that change nothing counted (claims and requeues, queued ⇄ sending; leases; provider
-- ids; a cancel skipping 100,000 queued lines) find no counted version to sum. Rows are deleted
-- only with their campaign, whose counters go with it (foreign key).
CREATE FUNCTION stats_recipients_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_campaign_hours AS h (campaign_id, hour, user_id, sent, delivered, read, failed)
  SELECT campaign_id, stats_recipient_hour(status, sent_at, failed_at, created_at) AS hour, user_id,
    sum(sign * (status IN ('sent', 'delivered', 'read'))::int),
    sum(sign * (status IN ('delivered', 'read'))::int),
    sum(sign * (status = 'read')::int),
    sum(sign * (status = 'failed')::int)
  FROM (
    SELECT -1 AS sign, campaign_id, user_id, status, sent_at, failed_at, created_at
    FROM old_rows WHERE status IN ('sent', 'delivered', 'read', 'failed')
    UNION ALL
    SELECT 1, campaign_id, user_id, status, sent_at, failed_at, created_at
    FROM new_rows WHERE status IN ('sent', 'delivered', 'read', 'failed')
  ) r
  GROUP BY 1, 2, 3
  HAVING (sum(sign * (status IN ('sent', 'delivered', 'read'))::int), sum(sign * (status IN ('delivered', 'read'))::int),
          sum(sign * (status = 'read')::int), sum(sign * (status = 'failed')::int)) <> (0, 0, 0, 0)
  ORDER BY 1, 2
  ON CONFLICT (campaign_id, hour) DO UPDATE SET sent = h.sent + excluded.sent,
    delivered = h.delivered + excluded.delivered, read = h.read + excluded.read, failed = h.failed + excluded.failed;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_recipient_updated AFTER UPDATE ON campaign_recipients
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_recipients_updated();
--> statement-breakpoint
-- Bot events are never updated, and deleted only with their account (whose counters go with it).
CREATE FUNCTION stats_bot_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_chat_hours AS h (user_id, hour, bot_replies)
  SELECT user_id, stats_hour(created_at), count(*) FROM new_rows WHERE stats_is_bot_reply(kind)
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (user_id, hour) DO UPDATE SET bot_replies = h.bot_replies + excluded.bot_replies;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_bot_events_inserted AFTER INSERT ON bot_events REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_bot_events_inserted();
--> statement-breakpoint
-- Conversation messages that just became countable (`p_rows`: inbound ones written, replies that
-- left, written with their provider id or given one), counted as stats_rebuild counts the rows: what
-- the rows count with them minus what they counted without them. A message a contact sent counts as
-- inbound in its hour, and as answered once the bot or a person sent that contact a message that
-- left at or after it; a contact's first message of a São Paulo day counts one conversation. Either
-- side may be written first (the chatbot stores a message after its reply): each looks for the
-- other. One contact's messages are counted one at a time (a transaction lock per contact, taken in
-- one order), so two writers never both miss each other. The rows come as values, not ids to look
-- up, and every lookup of the table is a step or a range along the thread index of one contact, so
-- the plans, made once per connection (the chatbot writes one message per statement, and planning
-- this statement each time cost more than running it), fit a table of any size.
CREATE FUNCTION stats_messages_counted(p_rows conversation_messages[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  contact_key bigint;
  p_ids uuid[];
BEGIN
  IF cardinality(p_rows) = 0 THEN
    RETURN;
  END IF;
  FOR contact_key IN
    SELECT DISTINCT hashtextextended('stats:' || r.user_id::text || ':' || r.phone, 0) FROM unnest(p_rows) r ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(contact_key);
  END LOOP;
  p_ids := ARRAY(SELECT r.id FROM unnest(p_rows) r);
  INSERT INTO stats_chat_hours AS h (user_id, hour, inbound, answered, conversations)
  SELECT user_id, hour, sum(inbound), sum(answered), sum(conversations)
  FROM (
    -- A new message, answered already if a reply that was there left at or after it.
    SELECT a.user_id, stats_hour(a.created_at) AS hour, 1 AS inbound,
      (EXISTS (
        SELECT 1 FROM conversation_messages o
        WHERE o.user_id = a.user_id AND o.phone = a.phone AND o.direction = 'out'
          AND o.provider_message_id IS NOT NULL AND o.created_at >= a.created_at
          AND NOT o.id = ANY (p_ids)))::int AS answered,
      0 AS conversations
    FROM unnest(p_rows) a WHERE a.direction = 'in'
    UNION ALL
    -- A new reply later than the contact's last one answers every message since that one (the new
    -- messages among them included, which no reply answered yet).
    SELECT k.user_id, stats_hour(m.created_at), 0, 1, 0
    FROM (SELECT DISTINCT r.user_id, r.phone FROM unnest(p_rows) r WHERE r.direction = 'out') k
    CROSS JOIN LATERAL (
      SELECT
        coalesce((
          SELECT o.created_at FROM conversation_messages o
          WHERE o.user_id = k.user_id AND o.phone = k.phone AND o.direction = 'out'
            AND o.provider_message_id IS NOT NULL AND NOT o.id = ANY (p_ids)
          ORDER BY o.created_at DESC LIMIT 1), '-infinity') AS before,
        (
          SELECT o.created_at FROM conversation_messages o
          WHERE o.user_id = k.user_id AND o.phone = k.phone AND o.direction = 'out'
            AND o.provider_message_id IS NOT NULL
          ORDER BY o.created_at DESC LIMIT 1) AS after
    ) l
    CROSS JOIN LATERAL (
      SELECT m.created_at FROM conversation_messages m
      WHERE m.user_id = k.user_id AND m.phone = k.phone AND m.direction = 'in'
        AND m.created_at > l.before AND m.created_at <= l.after
      OFFSET 0
    ) m
    UNION ALL
    -- A day's first message: every message of the contact's day is new; in the day's first bucket.
    SELECT d.user_id, d.day, 0, 0, 1
    FROM (
      SELECT r.user_id, r.phone, stats_sao_paulo_day(r.created_at) AS day, count(*) AS n
      FROM unnest(p_rows) r WHERE r.direction = 'in'
      GROUP BY 1, 2, 3
    ) d
    WHERE d.n = (
      SELECT count(*) FROM conversation_messages m
      WHERE m.user_id = d.user_id AND m.phone = d.phone AND m.direction = 'in'
        AND m.created_at >= (d.day AT TIME ZONE 'America/Sao_Paulo')
        AND m.created_at < ((d.day + interval '1 day') AT TIME ZONE 'America/Sao_Paulo'))
  ) x
  GROUP BY user_id, hour
  ORDER BY user_id, hour
  ON CONFLICT (user_id, hour) DO UPDATE SET inbound = h.inbound + excluded.inbound,
    answered = h.answered + excluded.answered, conversations = h.conversations + excluded.conversations;
END $$;
--> statement-breakpoint
-- Conversation messages are deleted only with their account (whose counters go with it).
CREATE FUNCTION stats_messages_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stats_messages_counted(ARRAY(
    SELECT n::conversation_messages FROM new_rows n WHERE n.direction = 'in' OR n.provider_message_id IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_messages_inserted AFTER INSERT ON conversation_messages REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_messages_inserted();
--> statement-breakpoint
-- A reply stored before it left counts once it has its provider id; receipts change nothing counted.
CREATE FUNCTION stats_messages_sent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stats_messages_counted(ARRAY(
    SELECT n::conversation_messages FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.direction = 'out' AND o.provider_message_id IS NULL AND n.provider_message_id IS NOT NULL));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_messages_sent AFTER UPDATE ON conversation_messages
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_messages_sent();
--> statement-breakpoint
-- Only being active and not opted out counts (not a verification, an edit of a name): each row's
-- old version taken out of its day of creation's active figure and its new version put in, summed
-- per day (rows whose active state did not change net nothing, without a join of the versions).
CREATE FUNCTION stats_contacts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_contact_days AS d (user_id, day, total, active)
  SELECT user_id, stats_sao_paulo_day(created_at)::date, 0, sum(sign)
  FROM (
    SELECT -1 AS sign, user_id, created_at FROM old_rows WHERE is_active AND NOT opted_out
    UNION ALL
    SELECT 1, user_id, created_at FROM new_rows WHERE is_active AND NOT opted_out
  ) r
  GROUP BY 1, 2
  HAVING sum(sign) <> 0
  ORDER BY 1, 2
  ON CONFLICT (user_id, day) DO UPDATE SET active = d.active + excluded.active;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_contacts_updated AFTER UPDATE ON contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_contacts_updated();
