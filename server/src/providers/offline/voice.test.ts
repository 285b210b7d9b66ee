import { afterAll, describe, expect, it } from "vitest";
import { catchProviderError } from "../../../test/fakes/provider-errors";
import { userMessages } from "../http";
import { createOfflineVoiceProvider, offlineVoices } from "./voice";
import { pcmFromWav, WavFormatError } from "./voice-wav";

// Each synthesis pays for eSpeak's WASM start-up, so these cases share their calls.
const voice = createOfflineVoiceProvider();
afterAll(() => voice.close());

/** How long the audio plays. */
const seconds = (audio: { pcm: Buffer; sampleRate: number }) => audio.pcm.length / 2 / audio.sampleRate;

describe("offline voice (eSpeak NG)", () => {
  it("offers distinct English voices, the default among them", async () => {
    const voices = await voice.listVoices();
    expect(voices.length).toBeGreaterThanOrEqual(8);
    expect(new Set(voices.map((entry) => entry.id)).size).toBe(voices.length);
    expect(new Set(voices.map((entry) => entry.name)).size).toBe(voices.length);
    expect(voices.map((entry) => entry.id)).toContain(voice.defaultVoice);
    for (const entry of voices) expect(entry.language).toMatch(/^en(-|$)/);
  });

  it("speaks in a worker: voices differ, longer text lasts longer, and the server keeps ticking", async () => {
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 20);
    const started = Date.now();
    const [low, bright, long] = await Promise.all([
      voice.speak({ text: "The door creaks open.", voice: "en-us+m3" }),
      voice.speak({ text: "The door creaks open.", voice: "en-us+f3" }),
      voice.speak({
        text: "The door creaks open, and beyond it the lantern light spills across a hall of dusty portraits.",
        voice: "en-us+m3",
      }),
    ]);
    clearInterval(ticker);
    const elapsed = Date.now() - started;
    for (const audio of [low, bright, long]) {
      expect(audio.sampleRate).toBe(22050);
      expect(audio.pcm.length % 2).toBe(0);
      expect(audio.pcm.some((byte) => byte !== 0)).toBe(true);
    }
    expect(seconds(low)).toBeGreaterThan(0.5);
    expect(low.pcm.equals(bright.pcm)).toBe(false);
    expect(seconds(long)).toBeGreaterThan(seconds(low) * 2);
    // A blocked loop would fire the interval about once for the whole run; allow for a loaded machine.
    expect(ticks).toBeGreaterThan(elapsed / 20 / 4);
  });

  it("speaks an urgent sentence (live reading) before the narration pieces already waiting", async () => {
    const finished: string[] = [];
    const piece = "The long road winds on through the marsh, past reeds and still water. ".repeat(4);
    const queued = ["first", "second", "third"].map((name) =>
      voice.speak({ text: piece, voice: voice.defaultVoice }).then(() => finished.push(name)),
    );
    const urgent = voice
      .speak({ text: "Who goes there?", voice: voice.defaultVoice, urgent: true })
      .then(() => finished.push("urgent"));
    await Promise.all([...queued, urgent]);
    // The first piece was already being spoken; the urgent sentence went before the two still waiting.
    expect(finished).toEqual(["first", "urgent", "second", "third"]);
  });

  it("speaks another player's narration before a flooding player's 10th live sentence (players in turn)", async () => {
    const finished: string[] = [];
    const flood = Array.from({ length: 10 }, (_, index) =>
      voice
        .speak({ text: "Run.", voice: voice.defaultVoice, urgent: true, owner: "player-a" })
        .then(() => finished.push(`A${index + 1}`)),
    );
    const narration = voice
      .speak({ text: "The tide turns.", voice: voice.defaultVoice, owner: "player-b" })
      .then(() => finished.push("B"));
    await Promise.all([...flood, narration]);
    // A1 was running when B asked; then three of A's sentences at most, then B's piece.
    expect(finished.indexOf("B")).toBeLessThan(finished.indexOf("A10"));
    expect(finished.indexOf("B")).toBeLessThanOrEqual(4);
  });

  it("speaks text that starts with dashes instead of reading it as an option", async () => {
    // As an option, --version would print eSpeak's version and write no audio at all.
    const audio = await voice.speak({ text: "--version", voice: voice.defaultVoice });
    expect(seconds(audio)).toBeGreaterThan(0.2);
    await expect(voice.speak({ text: " - ", voice: voice.defaultVoice })).resolves.toMatchObject({
      pcm: Buffer.alloc(0),
    });
  });

  it("fails what was waiting when the worker dies, and starts a new one for the next request", async () => {
    const first = voice.speak({ text: "One.", voice: voice.defaultVoice });
    const second = voice.speak({ text: "Two.", voice: voice.defaultVoice });
    await voice.close();
    for (const lost of [first, second]) {
      const error = await catchProviderError(lost);
      expect(error.message).toBe(userMessages.failed);
      expect(error.retryable).toBe(true);
    }
    const again = await voice.speak({ text: "Three.", voice: voice.defaultVoice });
    expect(again.pcm.length).toBeGreaterThan(0);
  });

  it("refuses a voice it does not have, without retrying", async () => {
    const error = await catchProviderError(voice.speak({ text: "Hello", voice: "alloy" }));
    expect(error.message).toMatch(/^The AI provider rejected the request: there is no voice "alloy"/);
    expect(error.retryable).toBe(false);
    expect(offlineVoices.some((entry) => entry.id === "alloy")).toBe(false);
  });

  it("refuses text over its limit", async () => {
    const error = await catchProviderError(
      voice.speak({ text: "a".repeat(voice.maxCharacters + 1), voice: voice.defaultVoice }),
    );
    expect(error.retryable).toBe(false);
  });
});

function wav(chunks: [string, Buffer][]): Buffer {
  const body = Buffer.concat(
    chunks.flatMap(([id, data]) => {
      const header = Buffer.alloc(8);
      header.write(id, 0, "latin1");
      header.writeUInt32LE(data.length, 4);
      return [header, data, Buffer.alloc(data.length % 2)];
    }),
  );
  const riff = Buffer.alloc(12);
  riff.write("RIFF", 0, "latin1");
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write("WAVE", 8, "latin1");
  return Buffer.concat([riff, body]);
}

function fmt(sampleRate: number, channels = 1, bits = 16): Buffer {
  const chunk = Buffer.alloc(16);
  chunk.writeUInt16LE(1, 0);
  chunk.writeUInt16LE(channels, 2);
  chunk.writeUInt32LE(sampleRate, 4);
  chunk.writeUInt32LE(sampleRate * channels * (bits / 8), 8);
  chunk.writeUInt16LE(channels * (bits / 8), 12);
  chunk.writeUInt16LE(bits, 14);
  return chunk;
}

describe("pcmFromWav", () => {
  it("finds the data chunk after other chunks", () => {
    const samples = Buffer.from([1, 0, 2, 0, 3, 0]);
    const file = wav([
      ["fmt ", fmt(16000)],
      ["LIST", Buffer.from("INFOISFT\x03\0\0\0abc", "latin1")],
      ["data", samples],
    ]);
    expect(pcmFromWav(file)).toEqual({ pcm: samples, sampleRate: 16000 });
  });

  it("refuses stereo, 8-bit and files that are not WAV", () => {
    expect(() =>
      pcmFromWav(
        wav([
          ["fmt ", fmt(22050, 2)],
          ["data", Buffer.alloc(4)],
        ]),
      ),
    ).toThrow(WavFormatError);
    expect(() =>
      pcmFromWav(
        wav([
          ["fmt ", fmt(22050, 1, 8)],
          ["data", Buffer.alloc(4)],
        ]),
      ),
    ).toThrow(WavFormatError);
    expect(() => pcmFromWav(Buffer.from("ID3 not a wave file"))).toThrow(WavFormatError);
    expect(() => pcmFromWav(wav([["fmt ", fmt(22050)]]))).toThrow(WavFormatError);
  });
});
