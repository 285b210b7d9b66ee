-- Restores run as a job (issue #39, decision 0123): a restore's upload, preview and progress, the storage keys
-- it stored (written before each file, so a sweep can remove what a killed restore left), and the story it is
-- writing, which stays hidden (stories.restoring) until its last batch commits.
ALTER TABLE "stories" ADD COLUMN "restoring" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "story_restores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"upload_dir" text NOT NULL,
	"upload_bytes" bigint NOT NULL,
	"preview" jsonb NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"story_id" uuid,
	"stored_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "story_restores" ADD CONSTRAINT "story_restores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "story_restores_user_idx" ON "story_restores" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "story_restores_status_idx" ON "story_restores" USING btree ("status","updated_at");
