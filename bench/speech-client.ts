// The measuring side of the speech budgets (bench/speech.ts), in its own process so it can be pinned to a core
// of its own: it talks to the app at argv[2] over HTTP only, as the web app does, and prints one line
// `RESULT {json}` (a SpeechMeasurement) at the end.
//
// 1. Narration of a 2,000-character narrator message: a story turn (offline text), the narrator's answer
//    reworded to 2,000 characters, POST .../speech, GET it until completed; from the POST to the answer that
//    says completed. Each run a different wording (a narration is made once per wording).
// 2. The narrated film of a 10-scene story (10 image turns): POST /api/stories/{id}/film, GET it until
//    completed, against the length of the narration it speaks (read from its WebVTT captions).
// 3. Live reading: POST /api/stories/{id}/speech/live with one sentence; from the request to the WAV's last byte.
//    Run first, on the freshly started app, so that its first call includes starting eSpeak's worker.
// 4. Read aloud's first sound (issue 42, decision 0133): a 500-character narrator message, each run a new
//    wording; from the click's POST .../speech to the last byte of the first piece (GET .../speech/chunks/0),
//    asking as the web's player does (every 250 ms), or to the stored file's if it was made before a look.

export type SpeechMeasurement = {
  narration: { ms: number; audioSeconds: number; characters: number }[];
  /** Read aloud, from the click to the first audio's last byte, and to the narration being stored. */
  firstSound: { ms: number; wholeMs: number; characters: number; fromPiece: boolean }[];
  film: {
    ms: number;
    scenes: number;
    /** The scenes' spoken narration, first word to last word of each scene, summed. */
    narrationSeconds: number;
    /** The end of the film's last caption (every scene's narration and hold). */
    lastCueEnd: number;
    /** Scene groups found in the captions (gaps longer than a pause between sentences). */
    captionGroups: number;
  } | null;
  live:
    | { available: false; status: number; detail: string }
    | { available: true; ms: number[]; bytes: number[]; characters: number[] };
};

const base = process.argv[2] ?? "http://127.0.0.1:3304";
const NARRATION_RUNS = Number(process.env.BENCH_SPEECH_RUNS ?? 5);
const FILM_SCENES = Number(process.env.BENCH_SPEECH_SCENES ?? 10);
const LIVE_CALLS = Number(process.env.BENCH_SPEECH_LIVE_CALLS ?? 20);
const MESSAGE_CHARACTERS = 2000;
const FIRST_SOUND_RUNS = Number(process.env.BENCH_SPEECH_FIRST_SOUND_RUNS ?? 5);
const FIRST_SOUND_CHARACTERS = 500;
/** The web's player asks this often while a narration is made (web/src/shared/voice/narration-player.ts). */
const PLAYER_POLL_MS = 250;
/** Between polls: the figure is late by at most this much. */
const NARRATION_POLL_MS = 25;
const FILM_POLL_MS = 200;

type Auth = { authorization: string };

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function register(name: string): Promise<Auth> {
  const res = await json<{ access_token: string }>(
    await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "bench-password" }),
    }),
  );
  return { authorization: `Bearer ${res.access_token}` };
}

const call = (auth: Auth, method: string, url: string, body?: unknown) =>
  fetch(`${base}${url}`, {
    method,
    headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function newStory(auth: Auth, title: string): Promise<string> {
  const { story } = await json<{ story: { id: string } }>(
    await call(auth, "POST", "/api/stories", { title }),
  );
  return story.id;
}

async function turn(auth: Auth, storyId: string, prompt: string, mode: "chat" | "image"): Promise<string> {
  const { message_id } = await json<{ message_id: string }>(
    await call(auth, "POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: mode }),
  );
  if (mode === "image") {
    for (let i = 0; ; i += 1) {
      const status = await json<{ media_generation_completed: boolean; media_generation_failed: boolean }>(
        await call(auth, "GET", `/api/stories/${storyId}/media-status/${message_id}`),
      );
      if (status.media_generation_completed) break;
      if (status.media_generation_failed || i > 600)
        throw new Error(`the picture of turn "${prompt}" failed`);
      await sleep(200);
    }
  }
  return message_id;
}

// Narrator prose with dialogue, as a story's narrator writes it; each run rotates and numbers it so that no two
// wordings are the same.
const SENTENCES = [
  "The lighthouse keeper climbs the spiral stair with a lamp in one hand and the log book under his arm.",
  "Rain drums on the glass of the lantern room, and the great lens turns slowly above the sleeping town.",
  '"Who left the door open?" he calls down into the dark, but only the wind answers him.',
  "Far below, the harbour lights go out one by one as the fishing boats come home before the storm.",
  "A gull lands on the iron rail, shakes the water from its wings and watches him with a yellow eye.",
  "He writes the hour in the book, the wind from the north west, the sea rising, the glass falling fast.",
  '"Another long night," says Mara from the doorway, holding out a mug of tea that steams in the cold air.',
  "She has rowed across from the village with bread, lamp oil and a letter sealed with green wax.",
  "The letter is from the harbour master, and it asks them to keep watch for a ship that is three days late.",
  "They stand together at the window and look out over the black water for any light that is not a star.",
  '"There," Mara whispers, pointing north, where a faint glow rises and falls with the swell.',
  "The keeper lifts the telescope, wipes the lens on his sleeve and holds his breath as he finds the light.",
  "It is a ship's lantern, swinging wildly, far too close to the rocks that the old charts call the Teeth.",
  "He rings the bell three times, the signal the village knows, and the sound rolls out across the bay.",
  "Down on the shore, doors open and people run with ropes and lanterns toward the lifeboat house.",
  '"We cannot reach them in this sea," Mara says, but she is already pulling on her oilskin coat.',
  "The keeper turns the great lamp by hand toward the channel, so that its beam lies on the safe water.",
  "For a long moment the ship's light does not move, and then, slowly, it begins to follow the beam.",
  "Waves break white over the Teeth, and the spray climbs so high that it spatters the lantern glass.",
  "The ship slides past the last rock with only a rope's length to spare and finds the calm of the harbour.",
  "On the quay the villagers cheer, and their voices reach the tower faintly, like a song from another room.",
  '"You did that," Mara says, and the keeper shakes his head and says the light did it, not him.',
  "Dawn comes grey and tired, and the storm drags its clouds away to the east like a torn sail.",
  "The keeper trims the wick, closes the log book and finally lets himself sit down on the cold stair.",
];
const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
];
// Words of every length from 1 to 10, to end the text on exactly MESSAGE_CHARACTERS characters.
const CLOSING = "the lamp burns on through the long night over the quiet water".split(" ");
const FILLERS = [
  "a",
  "an",
  "the",
  "last",
  "quiet",
  "harbor",
  "lantern",
  "watchmen",
  "fishermen",
  "lighthouse",
];

/** A narrator message of exactly `length` characters, different for each `run`. */
function narratorText(run: number, length = MESSAGE_CHARACTERS): string {
  const night = ORDINALS[run % ORDINALS.length]!;
  const rounds = Math.floor(run / ORDINALS.length);
  let text = `It is the ${night} night of the storm${rounds > 0 ? ` in the year ${1850 + rounds}` : ""}.`;
  // Sentences in a rotation that starts at a different place each run; the ones that no longer fit are passed.
  for (let i = 0; i < SENTENCES.length * 3; i += 1) {
    const next = SENTENCES[(run * 7 + i) % SENTENCES.length]!;
    if (text.length + 1 + next.length <= length - 12) text += ` ${next}`;
  }
  // The rest as one last sentence of filler words, the last one chosen to land on `length` exactly.
  let tail = " And";
  while (text.length + tail.length + 1 < length) {
    const room = length - text.length - tail.length - 1; // characters left for " word" and the full stop
    if (room - 1 <= 10) {
      tail += ` ${FILLERS[room - 2]!}`;
      break;
    }
    tail += ` ${CLOSING[(tail.split(" ").length - 2) % CLOSING.length]!}`;
  }
  return `${text}${tail}.`;
}

async function narration(auth: Auth) {
  const storyId = await newStory(auth, "Bench narration");
  const messageId = await turn(auth, storyId, "I climb the lighthouse stair", "chat");
  const path = `/api/stories/${storyId}/messages/${messageId}/speech`;
  const runs: SpeechMeasurement["narration"] = [];
  for (let run = 0; run < NARRATION_RUNS; run += 1) {
    const content = narratorText(run);
    if (content.length !== MESSAGE_CHARACTERS) throw new Error(`the text is ${content.length} characters`);
    await json(await call(auth, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content }));
    const started = performance.now();
    let speech = await json<{ status: string; duration_seconds: number | null; error: string | null }>(
      await call(auth, "POST", path),
    );
    while (speech.status === "pending") {
      await sleep(NARRATION_POLL_MS);
      speech = await json(await call(auth, "GET", path));
    }
    const ms = performance.now() - started;
    if (speech.status !== "completed") throw new Error(`narration ${run} ${speech.status}: ${speech.error}`);
    runs.push({ ms, audioSeconds: speech.duration_seconds ?? Number.NaN, characters: content.length });
  }
  return runs;
}

/** Read aloud as the web's player does it: the first piece's bytes are the first sound it can play. */
async function firstSound(auth: Auth): Promise<SpeechMeasurement["firstSound"]> {
  const storyId = await newStory(auth, "Bench first sound");
  const messageId = await turn(auth, storyId, "I climb the lighthouse stair", "chat");
  const path = `/api/stories/${storyId}/messages/${messageId}/speech`;
  const runs: SpeechMeasurement["firstSound"] = [];
  type Speech = { status: string; audio_url: string | null; chunks?: unknown[]; error: string | null };
  for (let run = 0; run < FIRST_SOUND_RUNS; run += 1) {
    // Wordings of their own (a narration is made once per wording), apart from the 2,000-character runs'.
    const content = narratorText(run + 50, FIRST_SOUND_CHARACTERS);
    await json(await call(auth, "PATCH", `/api/stories/${storyId}/messages/${messageId}`, { content }));
    const started = performance.now();
    let speech = await json<Speech>(await call(auth, "POST", path));
    let ms: number | null = null;
    let fromPiece = false;
    for (;;) {
      if (ms === null && speech.status === "pending" && (speech.chunks?.length ?? 0) > 0) {
        const piece = await call(auth, "GET", `${path}/chunks/0`);
        if (piece.ok) {
          await piece.arrayBuffer();
          ms = performance.now() - started;
          fromPiece = true;
        }
      }
      if (speech.status !== "pending") break;
      await sleep(PLAYER_POLL_MS);
      speech = await json(await call(auth, "GET", path));
    }
    if (speech.status !== "completed" || !speech.audio_url) {
      throw new Error(`first-sound narration ${run} ${speech.status}: ${speech.error}`);
    }
    if (ms === null) {
      // Made before the player's next look: it plays the stored file.
      const file = await fetch(new URL(speech.audio_url, base));
      await file.arrayBuffer();
      ms = performance.now() - started;
    }
    runs.push({ ms, wholeMs: performance.now() - started, characters: content.length, fromPiece });
  }
  return runs;
}

type Cue = { start: number; end: number };

function cuesOf(vtt: string): Cue[] {
  const seconds = (h: string, m: string, s: string) => Number(h) * 3600 + Number(m) * 60 + Number(s);
  return [...vtt.matchAll(/(\d\d):(\d\d):(\d\d\.\d{3}) --> (\d\d):(\d\d):(\d\d\.\d{3})/g)].map((m) => ({
    start: seconds(m[1]!, m[2]!, m[3]!),
    end: seconds(m[4]!, m[5]!, m[6]!),
  }));
}

/** Sentences of one scene are 0.25 to 0.35 s apart; scenes at least the 0.5 s tail after the last word. */
const SCENE_GAP_SECONDS = 0.45;

async function film(auth: Auth): Promise<NonNullable<SpeechMeasurement["film"]>> {
  const storyId = await newStory(auth, "Bench film");
  const places = ["stair", "lamp", "gallery", "shore", "quay", "boat", "rocks", "bell", "chart", "dawn"];
  for (let i = 0; i < FILM_SCENES; i += 1) {
    await turn(auth, storyId, `I look at the ${places[i % places.length]} (${i + 1})`, "image");
  }
  const started = performance.now();
  await json(await call(auth, "POST", `/api/stories/${storyId}/film`));
  type Film = { status: string; error: string | null; captions_url: string | null };
  let current: Film;
  for (;;) {
    current = (await json<{ film: Film }>(await call(auth, "GET", `/api/stories/${storyId}/film`))).film;
    if (current.status === "completed" || current.status === "failed") break;
    await sleep(FILM_POLL_MS);
  }
  const ms = performance.now() - started;
  if (current.status !== "completed" || !current.captions_url) throw new Error(`film: ${current.error}`);
  const captions = await fetch(new URL(current.captions_url, base));
  if (!captions.ok) throw new Error(`captions: ${captions.status}`);
  const cues = cuesOf(await captions.text());
  const groups: Cue[] = [];
  for (const cue of cues) {
    const last = groups.at(-1);
    if (last && cue.start - last.end < SCENE_GAP_SECONDS) last.end = cue.end;
    else groups.push({ ...cue });
  }
  return {
    ms,
    scenes: FILM_SCENES,
    narrationSeconds: groups.reduce((sum, group) => sum + group.end - group.start, 0),
    lastCueEnd: cues.at(-1)?.end ?? 0,
    captionGroups: groups.length,
  };
}

// First sentences of a turn, 120 to 200 characters, each different.
const OPENINGS = [
  "The tide has turned and the fog rolls in over the harbour wall",
  "Lanterns swing from the masts of the fishing boats as the storm gathers in the west",
  "A bell rings somewhere beyond the cliffs, slow and heavy, like a warning from the sea",
  "The keeper's daughter runs down the path with a message clutched in her cold fingers",
  "Smoke curls from the chimney of the inn, where the sailors wait out the long night",
];
const TAILS = [
  "and nobody in the village can remember a night as dark as this one.",
  "while the gulls circle low over the grey water, crying to each other.",
  "as the wind tugs at every shutter and rattles the loose slates on the roofs.",
  "and the old map on the table shows a cove that no captain has ever found.",
];

function liveSentence(i: number): string {
  return `${OPENINGS[i % OPENINGS.length]!} on the ${ORDINALS[Math.floor(i / 4) % ORDINALS.length]!} evening, ${TAILS[i % TAILS.length]!}`;
}

async function live(auth: Auth): Promise<SpeechMeasurement["live"]> {
  const storyId = await newStory(auth, "Bench live reading");
  const ms: number[] = [];
  const bytes: number[] = [];
  const characters: number[] = [];
  for (let i = 0; i < LIVE_CALLS; i += 1) {
    const text = liveSentence(i);
    const started = performance.now();
    const res = await call(auth, "POST", `/api/stories/${storyId}/speech/live`, { text });
    if (!res.ok) {
      const detail = await res.text();
      if (i === 0 && (res.status === 404 || res.status === 405)) {
        return { available: false, status: res.status, detail: detail.slice(0, 200) };
      }
      throw new Error(`live speech: ${res.status} ${detail}`);
    }
    const wav = await res.arrayBuffer();
    ms.push(performance.now() - started);
    if (!res.headers.get("content-type")?.startsWith("audio/wav")) {
      throw new Error(`live speech answered ${res.headers.get("content-type")}`);
    }
    bytes.push(wav.byteLength);
    characters.push(text.length);
  }
  return { available: true, ms, bytes, characters };
}

async function main() {
  const tag = Date.now().toString(36);
  const only = (process.env.BENCH_SPEECH_PARTS ?? "narration,first-sound,film,live").split(",");
  // One user per part: each starts with 15 credits, and ten image turns cost all of them.
  // Live reading first: its first call starts the app's eSpeak worker, as the first sentence read aloud after a
  // start does.
  const liveResult: SpeechMeasurement["live"] = only.includes("live")
    ? await live(await register(`live${tag}`))
    : { available: false, status: 0, detail: "not run" };
  const result: SpeechMeasurement = {
    narration: only.includes("narration") ? await narration(await register(`narr${tag}`)) : [],
    firstSound: only.includes("first-sound") ? await firstSound(await register(`first${tag}`)) : [],
    film: only.includes("film") ? await film(await register(`film${tag}`)) : null,
    live: liveResult,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

await main();
process.exit(0);
