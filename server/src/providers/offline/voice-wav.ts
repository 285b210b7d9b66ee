// Reads the PCM out of a WAV file by walking its RIFF chunks, so extra chunks (LIST, fact) or an unusual
// header size never end up in the audio as clicks.
import type { SpeechAudio } from "../types";

export class WavFormatError extends Error {}

/** The samples of a 16-bit mono PCM WAV; throws WavFormatError for anything else. */
export function pcmFromWav(wav: Buffer): SpeechAudio {
  if (
    wav.length < 12 ||
    wav.toString("latin1", 0, 4) !== "RIFF" ||
    wav.toString("latin1", 8, 12) !== "WAVE"
  ) {
    throw new WavFormatError("not a RIFF/WAVE file");
  }
  let sampleRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString("latin1", offset, offset + 4);
    const declared = wav.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (id === "fmt ") {
      if (declared < 16 || start + 16 > wav.length) throw new WavFormatError("fmt chunk too short");
      const format = wav.readUInt16LE(start);
      const channels = wav.readUInt16LE(start + 2);
      const bits = wav.readUInt16LE(start + 14);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new WavFormatError(
          `format ${format}, ${channels} channels, ${bits} bits; want PCM, mono, 16 bits`,
        );
      }
      sampleRate = wav.readUInt32LE(start + 4);
    } else if (id === "data") {
      if (sampleRate === undefined) throw new WavFormatError("data chunk before fmt chunk");
      // A writer that could not seek back leaves the size at 0 or 0xffffffff: the data runs to the end.
      const available = wav.length - start;
      const size = declared === 0 || declared > available ? available : declared;
      return { pcm: wav.subarray(start, start + size - (size % 2)), sampleRate };
    }
    // Chunks are padded to an even length.
    offset = start + declared + (declared % 2);
  }
  throw new WavFormatError("no data chunk");
}
