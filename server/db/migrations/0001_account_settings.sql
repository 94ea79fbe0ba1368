CREATE TABLE "account_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"auto_reconnect" boolean DEFAULT true NOT NULL,
	"message_delay" integer DEFAULT 2 NOT NULL,
	"daily_limit" integer DEFAULT 1000 NOT NULL,
	"respect_business_hours" boolean DEFAULT true NOT NULL,
	"business_start" text DEFAULT '09:00' NOT NULL,
	"business_end" text DEFAULT '18:00' NOT NULL,
	"business_days" text[] DEFAULT '{monday,tuesday,wednesday,thursday,friday}'::text[] NOT NULL,
	"channel" text DEFAULT 'personal' NOT NULL,
	"email_notifications" boolean DEFAULT true NOT NULL,
	"push_notifications" boolean DEFAULT true NOT NULL,
	"campaign_updates" boolean DEFAULT true NOT NULL,
	"system_alerts" boolean DEFAULT false NOT NULL,
	"marketing_emails" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_settings" ADD CONSTRAINT "account_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;