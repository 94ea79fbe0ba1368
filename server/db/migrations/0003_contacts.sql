DROP INDEX "contacts_user_idx";--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "search_text" text GENERATED ALWAYS AS (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn') || ' ' || replace(phone, '+', '')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "is_whatsapp_active" boolean;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "whatsapp_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "contacts_user_search_idx" ON "contacts" USING btree ("user_id","search_text","id");