-- Storage quotas (decision 0122): every object an account owns in media storage, with its size, and each
-- account's total (kept beside the objects, read with one primary-key lookup) and its own quota if set.
CREATE TABLE "media_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_objects" ADD CONSTRAINT "media_objects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_objects_user_idx" ON "media_objects" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "media_storage" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"quota_mb" integer,
	CONSTRAINT "media_storage_quota_non_negative" CHECK ("media_storage"."quota_mb" >= 0)
);
--> statement-breakpoint
ALTER TABLE "media_storage" ADD CONSTRAINT "media_storage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A video's poster is its scene picture's key: deleting the picture finds its videos by it (and the gallery
-- finds an item by either of its keys).
CREATE INDEX "media_items_thumbnail_key_idx" ON "media_items" USING btree ("thumbnail_key");--> statement-breakpoint
-- Backfill: a gallery item's original has its size in its row; the other objects stored before this
-- migration (thumbnails, portraits, uploads, exports, narration audio) are not counted (decision 0122).
INSERT INTO "media_objects" ("key", "user_id", "bytes", "created_at")
	SELECT "storage_key", "user_id", "bytes", "created_at" FROM "media_items"
	ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "media_storage" ("user_id", "used_bytes")
	SELECT "user_id", sum("bytes") FROM "media_objects" GROUP BY "user_id";
