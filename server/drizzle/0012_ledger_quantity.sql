ALTER TABLE "credit_transactions" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Paid charges written before this column: an image charge above one image's price was a Studio batch.
UPDATE "credit_transactions" SET "quantity" = (-"amount_tenths") / 15 WHERE "transaction_type" = 'usage_image' AND "amount_tenths" < -15;
