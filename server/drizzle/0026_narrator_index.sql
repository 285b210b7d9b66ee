-- The story's shown narrator messages in order (recall counts them for each recalled exchange's turn number):
-- with the columns a count reads, an index-only scan where the table's pages are known all-visible.
CREATE INDEX "chat_messages_narrator_idx" ON "chat_messages" USING btree ("user_id","story_id","created_at","id") WHERE "chat_messages"."role" = 'assistant' AND "chat_messages"."hidden" = false;
