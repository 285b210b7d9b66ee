-- Vendor health across processes (issue #44 item 3, decision 0159): every server process writes its AI vendor
-- calls per minute, vendor and kind (with a log-scale latency histogram, so quantiles merge across processes)
-- and a heartbeat with the event streams it holds, and the console's Health tab sums them over the last hour.
CREATE TABLE "vendor_call_minutes" (
	"process_id" uuid NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"vendor" text NOT NULL,
	"kind" text NOT NULL,
	"calls" integer NOT NULL,
	"errors" integer NOT NULL,
	"min_ms" double precision NOT NULL,
	"max_ms" double precision NOT NULL,
	"histogram" integer[] NOT NULL,
	CONSTRAINT "vendor_call_minutes_process_id_minute_vendor_kind_pk" PRIMARY KEY("process_id","minute","vendor","kind")
);
--> statement-breakpoint
CREATE INDEX "vendor_call_minutes_minute_idx" ON "vendor_call_minutes" USING btree ("minute");
--> statement-breakpoint
CREATE TABLE "server_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"event_streams_open" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "server_processes_seen_idx" ON "server_processes" USING btree ("seen_at");
