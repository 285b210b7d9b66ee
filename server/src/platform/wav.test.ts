// Joined narration: the parts in order with a pause between, timed, in a WAV any player reads.
import { describe, expect, it } from "vitest";
import { durationSeconds, joinSpeech, wavFile } from "./wav";

const tone = (seconds: number, sampleRate: number, value: number) => {
  const pcm = Buffer.alloc(Math.round(seconds * sampleRate) * 2);
  for (let i = 0; i < pcm.length; i += 2) pcm.writeInt16LE(value, i);
  return { pcm, sampleRate };
};

describe("joining spoken parts", () => {
  it("puts the parts one after another with the pause between, and says where each starts and ends", () => {
    const { audio, spans } = joinSpeech([tone(1, 8000, 100), tone(0.5, 8000, 200)], 0.25);
    expect(durationSeconds(audio)).toBeCloseTo(1.75, 5);
    expect(spans).toEqual([
      { start: 0, end: 1 },
      { start: 1.25, end: 1.75 },
    ]);
    // The pause is silence; the second part's samples follow it.
    expect(audio.pcm.readInt16LE(Math.round(1.1 * 8000) * 2)).toBe(0);
    expect(audio.pcm.readInt16LE(Math.round(1.3 * 8000) * 2)).toBe(200);
  });

  it("brings a part at another rate to the first part's rate, keeping its length in time", () => {
    const { audio, spans } = joinSpeech([tone(1, 24_000, 50), tone(1, 22_050, 50)], 0);
    expect(audio.sampleRate).toBe(24_000);
    expect(spans[1]!.end - spans[1]!.start).toBeCloseTo(1, 3);
  });
});

describe("a WAV file", () => {
  it("has a RIFF header that names the rate, mono 16-bit PCM and the data's length", () => {
    const wav = wavFile(tone(0.5, 22_050, 7));
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.toString("ascii", 8, 12)).toBe("WAVE");
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(22_050);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
  });
});
