CREATE TABLE "chatbot_turns" (
	"user_id" uuid NOT NULL,
	"contact" text NOT NULL,
	"next_ticket" bigint DEFAULT 0 NOT NULL,
	"serving" bigint DEFAULT 1 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_inbound_at" timestamp with time zone,
	"previous_inbound_at" timestamp with time zone,
	CONSTRAINT "chatbot_turns_user_id_contact_pk" PRIMARY KEY("user_id","contact")
);
--> statement-breakpoint
ALTER TABLE "chatbot_turns" ADD CONSTRAINT "chatbot_turns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;