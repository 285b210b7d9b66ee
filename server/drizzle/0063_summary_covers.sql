-- How many messages the story's summary has folded (issue 42: the Memory panel's "summary of the first N
-- messages" without counting the story's history each time it opens). Kept by the summary job as it folds;
-- null where it was never counted (a story summarised before this column, a restored one): counted once then.
ALTER TABLE "stories" ADD COLUMN "summary_covers" integer;
