-- Two accounts registering one phone number id at the same moment could both save it: the oldest
-- registration keeps it, later ones lose their credentials (the number shows as not configured).
DELETE FROM "whatsapp_business_accounts" w USING "whatsapp_business_accounts" o
  WHERE w."phone_number_id" = o."phone_number_id"
    AND (w."created_at", w."connection_id") > (o."created_at", o."connection_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_business_accounts_phone_number_idx" ON "whatsapp_business_accounts" USING btree ("phone_number_id");
