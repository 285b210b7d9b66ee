// PCM (signed 16-bit little-endian, mono) to a WAV file, and the joining of spoken parts with a pause between
// them. Every speech adapter hands back that PCM, so narration never decodes audio.
import type { SpeechAudio } from "../providers/types";

const BYTES_PER_SAMPLE = 2;

/** The 44-byte RIFF header of a mono 16-bit PCM WAV, then the samples. */
export function wavFile({ pcm, sampleRate }: SpeechAudio): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * BYTES_PER_SAMPLE, 28);
  header.writeUInt16LE(BYTES_PER_SAMPLE, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

export const durationSeconds = ({ pcm, sampleRate }: SpeechAudio) =>
  pcm.length / BYTES_PER_SAMPLE / sampleRate;

/**
 * Another rate's PCM at `sampleRate` (linear interpolation): one message's parts come from one provider and
 * share a rate, so this only runs if a vendor answers at another rate than its first part.
 */
function resample(audio: SpeechAudio, sampleRate: number): Buffer {
  if (audio.sampleRate === sampleRate) return audio.pcm;
  const input = audio.pcm;
  const inCount = Math.floor(input.length / BYTES_PER_SAMPLE);
  const outCount = Math.round((inCount * sampleRate) / audio.sampleRate);
  const out = Buffer.alloc(outCount * BYTES_PER_SAMPLE);
  for (let i = 0; i < outCount; i++) {
    const at = (i * audio.sampleRate) / sampleRate;
    const left = Math.min(inCount - 1, Math.floor(at));
    const right = Math.min(inCount - 1, left + 1);
    const mix = at - left;
    const value = input.readInt16LE(left * 2) * (1 - mix) + input.readInt16LE(right * 2) * mix;
    out.writeInt16LE(Math.round(value), i * 2);
  }
  return out;
}

/** The parts one after another with `pauseSeconds` of silence between, and where each part starts and ends. */
export function joinSpeech(
  parts: SpeechAudio[],
  pauseSeconds: number,
): { audio: SpeechAudio; spans: { start: number; end: number }[] } {
  const sampleRate = parts[0]?.sampleRate ?? 24_000;
  const pause = Buffer.alloc(Math.round(pauseSeconds * sampleRate) * BYTES_PER_SAMPLE);
  const chunks: Buffer[] = [];
  const spans: { start: number; end: number }[] = [];
  let samples = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      chunks.push(pause);
      samples += pause.length / BYTES_PER_SAMPLE;
    }
    const pcm = resample(part, sampleRate);
    const start = samples / sampleRate;
    samples += Math.floor(pcm.length / BYTES_PER_SAMPLE);
    chunks.push(pcm.subarray(0, Math.floor(pcm.length / BYTES_PER_SAMPLE) * BYTES_PER_SAMPLE));
    spans.push({ start, end: samples / sampleRate });
  });
  return { audio: { pcm: Buffer.concat(chunks), sampleRate }, spans };
}
