CREATE TABLE "unsettled_charges" (
	"paid_for" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"refund_tenths" integer NOT NULL,
	"delivered" boolean DEFAULT false NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "unsettled_charges" ADD CONSTRAINT "unsettled_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unsettled_charges_created_idx" ON "unsettled_charges" USING btree ("created_at");