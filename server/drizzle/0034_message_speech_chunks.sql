-- Read aloud starts at once (issue #42 item 7, decision 0133): while a narration is made, each piece the voice
-- has spoken waits here, in order, so the player plays the first sentence while the rest is being spoken. The
-- pieces go when the narration's one audio file is stored (or it fails), and with its row.
CREATE TABLE "message_speech_chunks" (
	"speech_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"wav" bytea NOT NULL,
	CONSTRAINT "message_speech_chunks_speech_id_index_pk" PRIMARY KEY("speech_id","index")
);
--> statement-breakpoint
ALTER TABLE "message_speech_chunks" ADD CONSTRAINT "message_speech_chunks_speech_id_message_speech_id_fk" FOREIGN KEY ("speech_id") REFERENCES "public"."message_speech"("id") ON DELETE cascade ON UPDATE no action;
