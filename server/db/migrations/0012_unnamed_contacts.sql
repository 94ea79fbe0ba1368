-- Contacts imported or created by the chatbot without a name used to get their phone number as a
-- name, so `{{primeiro_nome}}` greeted them by number. A contact without a name now keeps an empty
-- name (lists show its formatted number; variables use their fallback): older rows follow.
UPDATE "contacts" SET "name" = '' WHERE "name" = "phone";
