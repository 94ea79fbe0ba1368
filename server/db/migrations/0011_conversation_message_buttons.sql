-- What the contact saw and answered, for the 'Conversas' pane (both nullable, rows before this stay as
-- they are): `buttons` of an outbound message, { numbered, options: [{ text, type, value }] }, and the
-- `choice` of an inbound answer to them, { option, number? }.
ALTER TABLE "conversation_messages" ADD COLUMN "buttons" jsonb;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD COLUMN "choice" jsonb;