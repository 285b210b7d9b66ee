-- A story's checkpoints are found from its named messages (issue 42, the branch tree's cost bounded on a long
-- story): a partial index of the named narrator messages by story, so the tree reads the few checkpoints there
-- are instead of numbering every narration of the branch to find them.
CREATE INDEX "chat_messages_checkpoint_idx" ON "chat_messages" USING btree ("user_id","story_id") WHERE "chat_messages"."checkpoint" is not null;
