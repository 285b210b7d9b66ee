-- Recall's pinned exchanges are found from the player's pins (issue 42, a turn's cost bounded on a long story):
-- a partial index of the pinned marks by player, so recall reads the few pins there are instead of looking up a
-- mark for every older message of the story.
CREATE INDEX "recall_marks_pinned_idx" ON "recall_marks" USING btree ("user_id") WHERE "recall_marks"."pinned";
