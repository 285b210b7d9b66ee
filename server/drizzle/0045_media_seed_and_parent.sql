-- Seeds and edits (issue 45 items 1 and 2, decision 0145): the seed a picture was made with (null: not recorded)
-- and the picture an edit was made from (null when it was not an edit, or the parent was deleted since).
ALTER TABLE "media_items" ADD COLUMN "seed" bigint;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_parent_id_media_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_items_parent_idx" ON "media_items" USING btree ("parent_id");
