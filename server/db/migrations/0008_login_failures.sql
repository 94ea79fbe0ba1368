CREATE TABLE "login_failures" (
	"ip" text NOT NULL,
	"login_key" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_failures_ip_login_key_pk" PRIMARY KEY("ip","login_key")
);
--> statement-breakpoint
CREATE INDEX "login_failures_last_failed_idx" ON "login_failures" USING btree ("last_failed_at");