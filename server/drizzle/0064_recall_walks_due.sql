-- The branches whose recall index is to be walked from their start (decision 0166): a branch given its own copies
-- of messages (copy-on-write, decision 0137, or a copied history) holds narrations without vectors that a turn's
-- job, which reads only the newest, would not find. The copy marks the branch here in its own transaction; the
-- next indexing job of the branch walks it and clears the mark, unless a later copy marked it again (`marks`
-- counts the marks: a count, not a time, so the job's compare is exact whatever the clock's precision).
CREATE TABLE "recall_walks_due" (
	"story_id" uuid PRIMARY KEY NOT NULL,
	"marks" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recall_walks_due" ADD CONSTRAINT "recall_walks_due_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;
