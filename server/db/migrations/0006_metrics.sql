CREATE TABLE "stats_campaign_hours" (
	"campaign_id" uuid NOT NULL,
	"hour" timestamp NOT NULL,
	"user_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_campaign_hours_campaign_id_hour_pk" PRIMARY KEY("campaign_id","hour")
);
--> statement-breakpoint
CREATE TABLE "stats_chat_hours" (
	"user_id" uuid NOT NULL,
	"hour" timestamp NOT NULL,
	"bot_replies" integer DEFAULT 0 NOT NULL,
	"inbound" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"conversations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_chat_hours_user_id_hour_pk" PRIMARY KEY("user_id","hour")
);
--> statement-breakpoint
CREATE TABLE "stats_contact_days" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"active" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_contact_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "stats_campaign_hours" ADD CONSTRAINT "stats_campaign_hours_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_chat_hours" ADD CONSTRAINT "stats_chat_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_contact_days" ADD CONSTRAINT "stats_contact_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stats_campaign_hours_user_hour_idx" ON "stats_campaign_hours" USING btree ("user_id","hour");--> statement-breakpoint
-- The rollups above are kept by the triggers below, in the statement that changes the rows they
-- count, and recomputed from those rows by stats_rebuild (run once here for the existing data).
-- Each rule of what counts where lives in one function: stats_hour, stats_recipient_hour,
-- stats_is_bot_reply. contract/metrics.ts defines the figures built from these counters.
-- The São Paulo wall-clock hour of an instant, and the start of its São Paulo day: the buckets.
CREATE FUNCTION stats_hour(at timestamptz) RETURNS timestamp LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT date_trunc('hour', at AT TIME ZONE 'America/Sao_Paulo') $$;
--> statement-breakpoint
CREATE FUNCTION stats_sao_paulo_day(at timestamptz) RETURNS timestamp LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT date_trunc('day', at AT TIME ZONE 'America/Sao_Paulo') $$;
--> statement-breakpoint
-- A campaign message counts in the hour it was sent (sent, delivered, read) or failed (failed);
-- rows written without the time of that step count at their creation.
CREATE FUNCTION stats_recipient_hour(status text, sent_at timestamptz, failed_at timestamptz, created_at timestamptz)
RETURNS timestamp LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT CASE
  WHEN status IN ('sent', 'delivered', 'read') THEN stats_hour(coalesce(sent_at, created_at))
  WHEN status = 'failed' THEN stats_hour(coalesce(failed_at, created_at))
END $$;
--> statement-breakpoint
-- The bot events that are a reply the bot sent: BOT_REPLY_KINDS in contract/bot.ts.
CREATE FUNCTION stats_is_bot_reply(kind text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT kind IN ('welcome', 'auto_reply', 'ai_reply', 'out_of_hours', 'handoff') $$;
--> statement-breakpoint
CREATE FUNCTION stats_recipient_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o_hour timestamp;
  n_hour timestamp;
  d_sent int := 0;
  d_delivered int := 0;
  d_read int := 0;
  d_failed int := 0;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    o_hour := stats_recipient_hour(OLD.status, OLD.sent_at, OLD.failed_at, OLD.created_at);
  END IF;
  n_hour := stats_recipient_hour(NEW.status, NEW.sent_at, NEW.failed_at, NEW.created_at);
  IF o_hour IS NOT NULL THEN
    d_sent := -(OLD.status IN ('sent', 'delivered', 'read'))::int;
    d_delivered := -(OLD.status IN ('delivered', 'read'))::int;
    d_read := -(OLD.status = 'read')::int;
    d_failed := -(OLD.status = 'failed')::int;
    IF o_hour IS DISTINCT FROM n_hour THEN
      UPDATE stats_campaign_hours SET sent = sent + d_sent, delivered = delivered + d_delivered,
        read = read + d_read, failed = failed + d_failed
      WHERE campaign_id = OLD.campaign_id AND hour = o_hour;
      d_sent := 0; d_delivered := 0; d_read := 0; d_failed := 0;
    END IF;
  END IF;
  IF n_hour IS NOT NULL THEN
    d_sent := d_sent + (NEW.status IN ('sent', 'delivered', 'read'))::int;
    d_delivered := d_delivered + (NEW.status IN ('delivered', 'read'))::int;
    d_read := d_read + (NEW.status = 'read')::int;
    d_failed := d_failed + (NEW.status = 'failed')::int;
    INSERT INTO stats_campaign_hours AS h (campaign_id, hour, user_id, sent, delivered, read, failed)
    VALUES (NEW.campaign_id, n_hour, NEW.user_id, d_sent, d_delivered, d_read, d_failed)
    ON CONFLICT (campaign_id, hour) DO UPDATE SET sent = h.sent + excluded.sent,
      delivered = h.delivered + excluded.delivered, read = h.read + excluded.read, failed = h.failed + excluded.failed;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Starting a campaign inserts its rows queued or skipped: nothing to count, no trigger call. Rows
-- are deleted only with their campaign, whose counters go with it (foreign key). AFTER ROW triggers
-- run when their statement has updated (and locked) all its rows, so a counter row is always locked
-- after the recipient rows: the dispatcher's batch and a receipt for one of its rows cannot deadlock.
CREATE TRIGGER stats_recipient_inserted AFTER INSERT ON campaign_recipients FOR EACH ROW
WHEN (NEW.status IN ('sent', 'delivered', 'read', 'failed'))
EXECUTE FUNCTION stats_recipient_changed();
--> statement-breakpoint
-- Claims and requeues (queued ⇄ sending) change nothing counted and call nothing.
CREATE TRIGGER stats_recipient_updated AFTER UPDATE ON campaign_recipients FOR EACH ROW
WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.sent_at IS DISTINCT FROM NEW.sent_at
       OR OLD.failed_at IS DISTINCT FROM NEW.failed_at)
      AND (OLD.status IN ('sent', 'delivered', 'read', 'failed') OR NEW.status IN ('sent', 'delivered', 'read', 'failed')))
EXECUTE FUNCTION stats_recipient_changed();
--> statement-breakpoint
CREATE FUNCTION stats_bot_reply_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_chat_hours AS h (user_id, hour, bot_replies) VALUES (NEW.user_id, stats_hour(NEW.created_at), 1)
  ON CONFLICT (user_id, hour) DO UPDATE SET bot_replies = h.bot_replies + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Bot events are never updated, and deleted only with their account (whose counters go with it).
CREATE TRIGGER stats_bot_reply_inserted AFTER INSERT ON bot_events FOR EACH ROW
WHEN (stats_is_bot_reply(NEW.kind))
EXECUTE FUNCTION stats_bot_reply_inserted();
--> statement-breakpoint
-- A message a contact sent counts as inbound in its hour, and as answered once the bot or a person
-- sent that contact a message (one that left: it has a provider id) at or after it. A contact's
-- first message of a São Paulo day counts one conversation. Either side may be written first (the
-- chatbot stores a message after its reply): each looks for the other. One contact's messages are
-- counted one at a time (a transaction lock), so two writers never both miss each other.
CREATE FUNCTION stats_conversation_message() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  day_start timestamp;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('stats:' || NEW.user_id::text || ':' || NEW.phone, 0));
  IF NEW.direction = 'in' THEN
    day_start := stats_sao_paulo_day(NEW.created_at);
    -- One statement: its hour (inbound, answered) and its day's first bucket (a conversation), one
    -- row when they are the same.
    INSERT INTO stats_chat_hours AS h (user_id, hour, inbound, answered, conversations)
    SELECT NEW.user_id, b.hour, sum(b.inbound), sum(b.answered), sum(b.conversations)
    FROM (VALUES
      (stats_hour(NEW.created_at), 1, (EXISTS (
        SELECT 1 FROM conversation_messages o
        WHERE o.user_id = NEW.user_id AND o.phone = NEW.phone AND o.direction = 'out'
          AND o.provider_message_id IS NOT NULL AND o.created_at >= NEW.created_at))::int, 0),
      (day_start, 0, 0, (NOT EXISTS (
        SELECT 1 FROM conversation_messages m
        WHERE m.user_id = NEW.user_id AND m.phone = NEW.phone AND m.direction = 'in' AND m.id <> NEW.id
          AND m.created_at >= (day_start AT TIME ZONE 'America/Sao_Paulo')
          AND m.created_at < ((day_start + interval '1 day') AT TIME ZONE 'America/Sao_Paulo')))::int)
    ) AS b (hour, inbound, answered, conversations)
    WHERE b.inbound + b.conversations > 0
    GROUP BY b.hour
    ON CONFLICT (user_id, hour) DO UPDATE SET inbound = h.inbound + excluded.inbound,
      answered = h.answered + excluded.answered, conversations = h.conversations + excluded.conversations;
  ELSIF NEW.provider_message_id IS NOT NULL THEN
    -- The messages it answers: those since the contact's previous answer (none when that one is later).
    INSERT INTO stats_chat_hours AS h (user_id, hour, answered)
    SELECT NEW.user_id, stats_hour(m.created_at), count(*) FROM conversation_messages m
    WHERE m.user_id = NEW.user_id AND m.phone = NEW.phone AND m.direction = 'in' AND m.created_at <= NEW.created_at
      AND m.created_at > coalesce((
        SELECT max(o.created_at) FROM conversation_messages o
        WHERE o.user_id = NEW.user_id AND o.phone = NEW.phone AND o.direction = 'out'
          AND o.provider_message_id IS NOT NULL AND o.id <> NEW.id), '-infinity')
    GROUP BY 2
    ON CONFLICT (user_id, hour) DO UPDATE SET answered = h.answered + excluded.answered;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Conversation messages are deleted only with their account (whose counters go with it).
CREATE TRIGGER stats_conversation_message_inserted AFTER INSERT ON conversation_messages FOR EACH ROW
WHEN (NEW.direction = 'in' OR NEW.provider_message_id IS NOT NULL)
EXECUTE FUNCTION stats_conversation_message();
--> statement-breakpoint
CREATE TRIGGER stats_conversation_message_sent AFTER UPDATE OF provider_message_id ON conversation_messages FOR EACH ROW
WHEN (NEW.direction = 'out' AND OLD.provider_message_id IS NULL AND NEW.provider_message_id IS NOT NULL)
EXECUTE FUNCTION stats_conversation_message();
--> statement-breakpoint
-- Contacts arrive by the thousand (imports): one aggregate per statement over the inserted rows.
CREATE FUNCTION stats_contacts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_contact_days AS d (user_id, day, total, active)
  SELECT user_id, stats_sao_paulo_day(created_at)::date, count(*), count(*) FILTER (WHERE is_active AND NOT opted_out)
  FROM new_rows GROUP BY 1, 2
  ON CONFLICT (user_id, day) DO UPDATE SET total = d.total + excluded.total, active = d.active + excluded.active;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_contacts_inserted AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_contacts_inserted();
--> statement-breakpoint
CREATE FUNCTION stats_contacts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stats_contact_days s SET total = s.total - d.total, active = s.active - d.active
  FROM (SELECT user_id, stats_sao_paulo_day(created_at)::date AS day, count(*)::int AS total,
               (count(*) FILTER (WHERE is_active AND NOT opted_out))::int AS active
        FROM old_rows GROUP BY 1, 2) d
  WHERE s.user_id = d.user_id AND s.day = d.day;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stats_contacts_deleted AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION stats_contacts_deleted();
--> statement-breakpoint
CREATE FUNCTION stats_contact_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stats_contact_days
  SET active = active + CASE WHEN NEW.is_active AND NOT NEW.opted_out THEN 1 ELSE -1 END
  WHERE user_id = NEW.user_id AND day = stats_sao_paulo_day(NEW.created_at)::date;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only a change of being active and not opted out calls anything (not a verification, an edit of a name).
CREATE TRIGGER stats_contact_changed AFTER UPDATE OF is_active, opted_out ON contacts FOR EACH ROW
WHEN ((OLD.is_active AND NOT OLD.opted_out) IS DISTINCT FROM (NEW.is_active AND NOT NEW.opted_out))
EXECUTE FUNCTION stats_contact_changed();
--> statement-breakpoint
-- Recomputes an account's rollups (every account's with NULL) from the rows they count.
CREATE FUNCTION stats_rebuild(p_user uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_campaign_hours WHERE p_user IS NULL OR user_id = p_user;
  INSERT INTO stats_campaign_hours (campaign_id, hour, user_id, sent, delivered, read, failed)
  SELECT campaign_id, hour, user_id,
    count(*) FILTER (WHERE status IN ('sent', 'delivered', 'read')),
    count(*) FILTER (WHERE status IN ('delivered', 'read')),
    count(*) FILTER (WHERE status = 'read'),
    count(*) FILTER (WHERE status = 'failed')
  FROM (SELECT campaign_id, user_id, status, stats_recipient_hour(status, sent_at, failed_at, created_at) AS hour
        FROM campaign_recipients
        WHERE status IN ('sent', 'delivered', 'read', 'failed') AND (p_user IS NULL OR user_id = p_user)) r
  GROUP BY campaign_id, hour, user_id;

  DELETE FROM stats_chat_hours WHERE p_user IS NULL OR user_id = p_user;
  INSERT INTO stats_chat_hours (user_id, hour, bot_replies, inbound, answered, conversations)
  SELECT user_id, hour, sum(bot_replies), sum(inbound), sum(answered), sum(conversations)
  FROM (
    SELECT user_id, stats_hour(created_at) AS hour, count(*) AS bot_replies, 0 AS inbound, 0 AS answered, 0 AS conversations
    FROM bot_events WHERE stats_is_bot_reply(kind) AND (p_user IS NULL OR user_id = p_user)
    GROUP BY 1, 2
    UNION ALL
    SELECT m.user_id, stats_hour(m.created_at), 0, count(*), count(*) FILTER (WHERE m.created_at <= o.last_out), 0
    FROM conversation_messages m
    LEFT JOIN (SELECT user_id, phone, max(created_at) AS last_out FROM conversation_messages
               WHERE direction = 'out' AND provider_message_id IS NOT NULL AND (p_user IS NULL OR user_id = p_user)
               GROUP BY 1, 2) o ON o.user_id = m.user_id AND o.phone = m.phone
    WHERE m.direction = 'in' AND (p_user IS NULL OR m.user_id = p_user)
    GROUP BY 1, 2
    UNION ALL
    SELECT user_id, day, 0, 0, 0, count(*)
    FROM (SELECT DISTINCT user_id, phone, stats_sao_paulo_day(created_at) AS day FROM conversation_messages
          WHERE direction = 'in' AND (p_user IS NULL OR user_id = p_user)) d
    GROUP BY 1, 2
  ) x
  GROUP BY user_id, hour;

  DELETE FROM stats_contact_days WHERE p_user IS NULL OR user_id = p_user;
  INSERT INTO stats_contact_days (user_id, day, total, active)
  SELECT user_id, stats_sao_paulo_day(created_at)::date, count(*), count(*) FILTER (WHERE is_active AND NOT opted_out)
  FROM contacts WHERE p_user IS NULL OR user_id = p_user
  GROUP BY 1, 2;
END $$;
--> statement-breakpoint
SELECT stats_rebuild(NULL);
