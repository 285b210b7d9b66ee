-- Turns that committed after their story was deleted (before this key existed) belong to nothing. Media still
-- pending for them never reach anyone: what they owe (the charge above the text's 0.5 credit, 5 tenths) goes
-- to the unsettled-charge sweep, which refunds it once, keyed by the message (skipped if already refunded).
INSERT INTO "unsettled_charges" ("paid_for", "user_id", "refund_tenths", "delivered", "description", "created_at")
SELECT m."id"::text, m."user_id", m."charged_tenths" - 5, true, 'Refund: the story was deleted before its media was ready', now()
FROM "chat_messages" m
WHERE m."story_id" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "stories" s WHERE s."id" = m."story_id")
  AND m."media_status" = 'pending'
  AND m."charged_tenths" > 5
  AND NOT EXISTS (SELECT 1 FROM "credit_transactions" c WHERE c."reference" = 'refund:' || m."id"::text)
ON CONFLICT ("paid_for") DO NOTHING;--> statement-breakpoint
DELETE FROM "chat_messages" m
WHERE m."story_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "stories" s WHERE s."id" = m."story_id");--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;
