ALTER TABLE "studio_messages" ADD COLUMN "status" text DEFAULT 'completed' NOT NULL;--> statement-breakpoint
ALTER TABLE "studio_messages" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "studio_messages" ADD COLUMN "charged_tenths" integer DEFAULT 0 NOT NULL;