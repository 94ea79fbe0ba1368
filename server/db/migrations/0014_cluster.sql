CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_processes" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"draining" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_connection_leases" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"owner" text,
	"lease_until" timestamp with time zone,
	"state" text,
	"state_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "whatsapp_connection_leases" ADD CONSTRAINT "whatsapp_connection_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "server_processes_heartbeat_idx" ON "server_processes" USING btree ("heartbeat_at");