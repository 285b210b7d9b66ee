-- The time after which no message a shared branch shows from its lineage was told (decision 0168): its fork's
-- time, rounded up to the millisecond. A branch's reads of each lineage level then start that level's index range
-- at the fork instead of passing over everything the branch it came from told afterwards. Null for a branch
-- that holds its own history and for shared branches made before this column (their reads stay unbounded).
ALTER TABLE "stories" ADD COLUMN "history_until" timestamp with time zone;
