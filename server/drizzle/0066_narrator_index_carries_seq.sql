-- A shared branch counts its turns part by part (decision 0168): each lineage level's narrations up to its cut.
-- The narrator index carries each row's seq, so those counts, like a branch's own, read the index alone instead of
-- fetching every narration's row to compare its seq with the cut.
DROP INDEX IF EXISTS "chat_messages_narrator_idx";--> statement-breakpoint
CREATE INDEX "chat_messages_narrator_idx" ON "chat_messages" USING btree ("user_id","story_id","created_at","id") INCLUDE ("seq") WHERE "chat_messages"."role" = 'assistant' and "chat_messages"."hidden" = false;
