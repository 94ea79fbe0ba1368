ALTER TABLE "password_reset_tokens" ADD COLUMN "requested_ip" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_notice_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "password_reset_tokens_ip_idx" ON "password_reset_tokens" USING btree ("requested_ip","created_at");