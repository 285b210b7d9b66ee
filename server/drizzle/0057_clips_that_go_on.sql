-- Clips that go on (issue 45 item 4, decision 0160): a gallery item knows a clip's length (null for pictures
-- and for clips made before; an extension reads an old clip's length from the file), and a clip being made
-- from a picture or extended is a clip job, charged when queued and ended once: its new item, or a refund.
ALTER TABLE "media_items" ADD COLUMN "duration_seconds" double precision;--> statement-breakpoint
CREATE TABLE "media_clip_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"parent_id" uuid NOT NULL,
	"last_frame_id" uuid,
	"camera" text DEFAULT 'still' NOT NULL,
	"prompt" text NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"charged_tenths" integer DEFAULT 0 NOT NULL,
	"item_id" uuid,
	"detail" text,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);--> statement-breakpoint
ALTER TABLE "media_clip_jobs" ADD CONSTRAINT "media_clip_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_clip_jobs" ADD CONSTRAINT "media_clip_jobs_item_id_media_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."media_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_clip_jobs_user_idx" ON "media_clip_jobs" USING btree ("user_id","created_at");
