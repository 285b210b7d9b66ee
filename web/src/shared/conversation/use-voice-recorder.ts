// Voice input: record from the microphone (mono, 16 kHz,
// WebM or MP4, whichever this browser records), stop by the button or Enter, send the recording to
// /api/transcribe-audio and hand the text back. Every failure ends in one fixed message.
import { NO_SPEECH_MESSAGE } from "@storyverse/contract/chat";
import { useCallback, useEffect, useRef, useState } from "react";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { readStorage } from "../../lib/storage";
import { type TranscriptionResponse, transcribeAudio } from "./api/transcribe-audio";

// The messages, in the interface's language at the time they are shown.
const microphoneError = () => i18n.t("conversation:voiceRecorder.microphoneError");
const noTokenError = () => i18n.t("conversation:voiceRecorder.noTokenError");
const authFailedError = () => i18n.t("conversation:voiceRecorder.authFailedError");
const noSpeechError = () => i18n.t("conversation:voiceRecorder.noSpeech");
const unknownError = () => i18n.t("conversation:voiceRecorder.unknownError");

/** The recording formats the server accepts, best first. */
const RECORDING_TYPES = [
  { mimeType: "audio/webm;codecs=opus", extension: "webm" },
  { mimeType: "audio/webm", extension: "webm" },
  { mimeType: "audio/mp4", extension: "mp4" },
] as const;

export type VoiceState = "idle" | "recording" | "transcribing";

export function voiceInputSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.MediaRecorder !== "undefined" &&
    typeof navigator.mediaDevices?.getUserMedia === "function"
  );
}

export function pickRecordingType(
  isTypeSupported: (type: string) => boolean,
): (typeof RECORDING_TYPES)[number] | null {
  return RECORDING_TYPES.find((type) => isTypeSupported(type.mimeType)) ?? null;
}

/** The words to show for a transcription's answer: null when it succeeded. */
export function transcriptionProblem(response: TranscriptionResponse): string | null {
  if (response.success && response.text.trim()) return null;
  if (response.error === NO_SPEECH_MESSAGE || (response.success && !response.text.trim()))
    return noSpeechError();
  return i18n.t("conversation:voiceRecorder.transcriptionFailed", {
    error: response.error ? translateServerMessage(response.error) : unknownError(),
  });
}

/** The words to show for a transcription request that failed outright. */
export function transcriptionErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return authFailedError();
  const message =
    error instanceof Error && error.message
      ? error instanceof ApiError
        ? translateServerMessage(errorMessage(error))
        : error.message
      : unknownError();
  return i18n.t("conversation:voiceRecorder.transcriptionError", { error: message });
}

interface VoiceRecorderOptions {
  onText: (text: string) => void;
  onError: (message: string) => void;
}

export function useVoiceRecorder({ onText, onError }: VoiceRecorderOptions) {
  const [state, setState] = useState<VoiceState>("idle");
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const callbacks = useRef({ onText, onError });
  callbacks.current = { onText, onError };
  const mounted = useRef(true);

  const releaseMicrophone = useCallback(() => {
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
  }, []);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (recorder.current?.state === "recording") {
        recorder.current.onstop = null;
        recorder.current.stop();
      }
      releaseMicrophone();
    };
  }, [releaseMicrophone]);

  const transcribe = useCallback(async (audio: Blob, extension: string) => {
    if (!readStorage("token")) {
      callbacks.current.onError(noTokenError());
      return;
    }
    if (mounted.current) setState("transcribing");
    try {
      const response = await transcribeAudio(audio, `voice.${extension}`);
      const problem = transcriptionProblem(response);
      if (problem) callbacks.current.onError(problem);
      else callbacks.current.onText(response.text.trim());
    } catch (error) {
      callbacks.current.onError(transcriptionErrorMessage(error));
    } finally {
      if (mounted.current) setState("idle");
    }
  }, []);

  const start = useCallback(async () => {
    if (state !== "idle") return;
    const type = pickRecordingType((mime) => MediaRecorder.isTypeSupported(mime));
    let media: MediaStream;
    try {
      if (!type) throw new Error("No supported recording format");
      media = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, sampleRate: 16_000, echoCancellation: true, noiseSuppression: true },
      });
    } catch {
      callbacks.current.onError(microphoneError());
      return;
    }
    if (!mounted.current) {
      for (const track of media.getTracks()) track.stop();
      return;
    }
    stream.current = media;
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(media, { mimeType: type.mimeType });
    rec.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    rec.onstop = () => {
      releaseMicrophone();
      recorder.current = null;
      const audio = new Blob(chunks, { type: type.mimeType.split(";")[0] });
      if (audio.size === 0) {
        if (mounted.current) setState("idle");
        callbacks.current.onError(noSpeechError());
        return;
      }
      void transcribe(audio, type.extension);
    };
    recorder.current = rec;
    rec.start();
    setState("recording");
  }, [state, releaseMicrophone, transcribe]);

  const stop = useCallback(() => {
    if (recorder.current?.state === "recording") recorder.current.stop();
  }, []);

  return { state, start, stop };
}
