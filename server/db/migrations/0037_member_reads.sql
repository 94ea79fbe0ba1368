CREATE TABLE "conversation_reads" (
	"user_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"connection_id" uuid NOT NULL,
	"seen_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "conversation_reads_member_id_phone_connection_id_pk" PRIMARY KEY("member_id","phone","connection_id")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "inbound_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_reads" ADD CONSTRAINT "conversation_reads_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_reads_user_idx" ON "conversation_reads" USING btree ("user_id");