CREATE TABLE "cloud_media_ids" (
	"user_id" uuid NOT NULL,
	"phone_number_id" text NOT NULL,
	"file_key" text NOT NULL,
	"media_id" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cloud_media_ids_user_id_phone_number_id_file_key_pk" PRIMARY KEY("user_id","phone_number_id","file_key")
);
--> statement-breakpoint
ALTER TABLE "cloud_media_ids" ADD CONSTRAINT "cloud_media_ids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;