-- The orphaned media sweep (issue #39, decision 0123) walks the objects older than a day in the order they were
-- counted, a bounded batch a run, from a cursor on (created_at, key).
CREATE INDEX "media_objects_created_idx" ON "media_objects" USING btree ("created_at","key");
