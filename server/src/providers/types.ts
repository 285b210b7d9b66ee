// The five AI capabilities, one interface each. Adapters (offline, openai, byteplus, replicate) implement
// them; nothing outside src/providers knows which vendor is behind an interface.

export type ChatRole = "system" | "user" | "assistant";
export type ChatMessage = { role: ChatRole; content: string };

/**
 * What a text request is for (decision 0151). Every caller says; the offline text provider answers by it and
 * never by the prompt's wording, so rewording a prompt changes nothing offline.
 */
export const TEXT_PURPOSES = [
  "turn",
  "continue",
  "scene",
  "summary",
  "card-draft",
  "lore",
  "advice",
] as const;
export type TextPurpose = (typeof TEXT_PURPOSES)[number];

/** A story as the narrator is told it: its title and context (the main chat's own when there is no story). */
export type StoryFacts = { title: string; context: string };

/** What a story turn or a Continue is written from, besides the conversation: as told in the instructions. */
export type NarrationFacts = {
  story: StoryFacts;
  /** The Story Cards the narrator is given this turn (those that fit), in the order given. */
  cards: { name: string; kind: string }[];
  /** Older exchanges recalled for this turn (those that fit), in story order. */
  recalled: { turn: number; narrator: string }[];
  /** Which try at this answer (a retry's version number), so each try is written anew; absent: the first. */
  attempt?: number;
  /**
   * Character mode (decision 0154): the story card the AI plays in the first person, and who the player is;
   * absent: the narrator tells the story.
   */
  character?: CharacterFacts;
};

/** The card a character teller plays, its words with the story's names in place, and the player's name. */
export type CharacterFacts = {
  name: string;
  description: string;
  greeting: string;
  playerName: string;
  /** A group scene (decision 0164): the other characters present, by name. */
  others?: string[];
  /** A group scene: the other character who spoke last, whom this one answers. */
  answering?: string;
};

/**
 * A request's purpose with the facts its answer is made from, as data. Vendor models read the messages; a
 * provider without a model (offline) reads these fields and the conversation's roles, never the wording.
 */
export type TextTask =
  /** A story turn answering the player's message (the last user message), or Continue of the last answer. */
  | ({ purpose: "turn" | "continue" } & NarrationFacts)
  /** The one "SCENE: ..." line for the picture of a finished answer. */
  | { purpose: "scene"; story: StoryFacts; playerWords: string; storyText: string }
  /** The rolling summary: the summary so far with the passages that left the window folded in. */
  | {
      purpose: "summary";
      summarySoFar: string;
      passages: { speaker: "player" | "narrator"; text: string }[];
    }
  /** "Make a card" from a narrator passage: JSON of one card. */
  | { purpose: "card-draft"; storyTitle: string; existingCards: string[]; passage: string }
  /** Living lore: JSON of the names, scene state and appearances in the newest narration. */
  | { purpose: "lore" }
  /** The Studio's prompt advisor answering the creator's last message. */
  | { purpose: "advice" };

export type TextRequest = TextTask & {
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** One of listModels(); the provider's configured model when not given. */
  model?: string;
  signal?: AbortSignal;
};

/** The request of one purpose, with that purpose's facts. */
export type TextRequestFor<P extends TextPurpose> = Extract<TextRequest, { purpose: P }>;

export interface TextProvider {
  /** "offline", "openai", "byteplus": reported by /api/config. */
  readonly name: string;
  /**
   * The purposes this provider answers well. A vendor model answers them all; the offline narrator has no
   * model to read a narration for living lore, so the service uses its own readers instead of asking.
   */
  readonly purposes: readonly TextPurpose[];
  /** The model a request without `model` uses (TEXT_MODEL or the vendor's default). */
  readonly defaultModel?: string;
  /** The models the provider offers (an OpenAI-compatible server's GET /models); absent: the default only. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  complete(request: TextRequest): Promise<string>;
  /** The same answer as complete(), delivered in pieces as the vendor produces them. */
  stream(request: TextRequest): AsyncIterable<string>;
}

/** Bytes plus their type: references going in, results coming out. Vendor URLs are always downloaded. */
export type MediaFile = { data: Buffer; mimeType: string };

/**
 * What a reference is for (decision 0161): `content` (the default) is what the picture shows, `style` how it
 * looks (palette, light, medium), `character` who is in it (a Story Card's views and outfits).
 */
export type ReferenceRole = "content" | "style" | "character";

/** A reference picture and its role; absent: content. */
export type ReferenceImage = MediaFile & { role?: ReferenceRole };

export type ImageRequest = {
  prompt: string;
  /** 1..4 images per call. */
  count: number;
  /** 0..10 reference images that the results should stay consistent with, each with its role (decision 0161). */
  references: ReferenceImage[];
  /** The pictures' shape (a story's scenes, a Studio batch); absent: 4:3. 2K on the long side (decision 0149). */
  aspectRatio?: ImageAspectRatio;
  /**
   * The first picture's seed (unsigned 32-bit); picture i is made with seed + i, so each repeats alone with
   * its own. Only for a provider that `takesSeed`; absent: the provider's own choice.
   */
  seed?: number;
  signal?: AbortSignal;
};

/** The shapes a picture can take (contract ASPECT_RATIOS). */
export type ImageAspectRatio = "1:1" | "4:3" | "3:4" | "16:9" | "9:16" | "21:9";

/** The ways a picture can be edited (issue 45 item 1, decision 0145). */
export type ImageEditKind = "inpaint" | "outpaint" | "vary" | "upscale";

export type ImageEditRequest = {
  kind: ImageEditKind;
  /** The picture being edited (PNG, JPEG or WebP). */
  image: MediaFile;
  /** What to paint (inpaint, outpaint) or the picture's own prompt (vary). */
  prompt: string;
  /** inpaint: a PNG of the picture's size; pixels with alpha of 128 or more are repainted, the rest kept. */
  mask?: Buffer;
  /** outpaint: the side the canvas grows on. */
  direction?: "left" | "right" | "up" | "down";
  /** vary: how far the variation goes. */
  strength?: "subtle" | "strong";
  /** The seed the edit is made with (kept on the result). */
  seed: number;
  signal?: AbortSignal;
};

export interface ImageProvider {
  readonly name: string;
  /** Images at 2K (about 2048 px on the long side). */
  generate(request: ImageRequest): Promise<MediaFile[]>;
  /** The provider passes `seed` on (the offline painter repeats a seed exactly): pictures keep their seed. */
  readonly takesSeed?: boolean;
  /** The edit kinds this provider can make; absent or empty: it cannot edit. */
  readonly editKinds?: readonly ImageEditKind[];
  /** One edited picture (a new picture: the original is never changed). */
  edit?(request: ImageEditRequest): Promise<MediaFile>;
}

/** How the camera moves through a clip (contract CAMERA_MOVES, decision 0160); "still" keeps it fixed. */
export type CameraMove = "still" | "push_in" | "pull_out" | "pan_left" | "pan_right" | "orbit";

export type VideoRequest = {
  prompt: string;
  /** The first frame: the clip animates this image. */
  image: MediaFile;
  durationSeconds: 5;
  /** The picture the clip ends on; only for a provider whose clipFeatures.lastFrame is true. */
  lastFrame?: MediaFile;
  /** The camera's move; only for a provider whose clipFeatures.camera is true. Absent: its own choice. */
  camera?: CameraMove;
  signal?: AbortSignal;
};

/** What a video provider takes beyond a first frame and a prompt (decision 0160); absent: neither. */
export type ClipFeatures = { lastFrame: boolean; camera: boolean };

export type VideoTaskState =
  | { status: "pending" }
  | { status: "succeeded"; video: MediaFile }
  | { status: "failed"; error: string };

export interface VideoProvider {
  readonly name: string;
  /** Whether it honours a last frame and a camera move; a request for one it lacks is refused before the charge. */
  readonly clipFeatures?: ClipFeatures;
  start(request: VideoRequest): Promise<{ taskId: string }>;
  poll(taskId: string, signal?: AbortSignal): Promise<VideoTaskState>;
}

export type TranscriptionRequest = {
  audio: Buffer;
  mimeType: string;
  filename: string;
  signal?: AbortSignal;
};

export interface SpeechProvider {
  readonly name: string;
  transcribe(request: TranscriptionRequest): Promise<string>;
}

/** One voice a speech provider offers (GET /api/voices). */
export type VoiceInfo = {
  /** The provider's own id, stored on stories and cards ("en-us+f3", "alloy", an ElevenLabs voice id). */
  id: string;
  name: string;
  /** A BCP 47 tag ("en-US") or "" when the vendor does not say. */
  language: string;
};

export type SpeakRequest = {
  /** Plain text, at most the provider's maxCharacters (callers split longer text at sentence ends). */
  text: string;
  /** One of listVoices()'s ids. */
  voice: string;
  signal?: AbortSignal;
  /** A player is waiting to hear it (live reading): a provider with a queue speaks it first. */
  urgent?: boolean;
  /** Whose speech it is (a user id): a provider with a queue serves owners in turn. */
  owner?: string;
};

/**
 * Speech as raw PCM: signed 16-bit little-endian, mono, at `sampleRate`. Every adapter hands back the same
 * shape, so narration joins the pieces of one message (several voices) without decoding anything.
 */
export type SpeechAudio = { pcm: Buffer; sampleRate: number };

export interface VoiceProvider {
  /** "offline", "openai", "elevenlabs": reported by /api/voices. */
  readonly name: string;
  /** The vendor bills this speech by the character, so players pay credits for it; false: made here, free. */
  readonly billed: boolean;
  /** The longest text one speak() call takes. */
  readonly maxCharacters: number;
  /** The voice used where a story or card names none. */
  readonly defaultVoice: string;
  listVoices(signal?: AbortSignal): Promise<VoiceInfo[]>;
  speak(request: SpeakRequest): Promise<SpeechAudio>;
  /** Gets ready to speak soon (the offline voice starts its worker), so a first sentence does not wait for it. */
  warm?(): void;
}

/**
 * Text to vectors for recall by meaning (decision 0113): one vector per text, in order, all of one length.
 * An OpenAI-compatible `/embeddings` call (OpenAI, Ollama, vLLM, llama.cpp server).
 */
export interface EmbeddingsProvider {
  readonly name: string;
  /** The model the vectors come from: vectors of different models are never compared. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export type Providers = {
  text: TextProvider;
  image: ImageProvider;
  video: VideoProvider;
  /** Absent when no transcription provider is configured (there is no offline one). */
  speech: SpeechProvider | undefined;
  /** Text to speech (TTS_PROVIDER); absent when it is "none". */
  voice: VoiceProvider | undefined;
  /** Recall by meaning (EMBEDDINGS_PROVIDER); absent when it is "none" (recall is text search only). */
  embeddings?: EmbeddingsProvider | undefined;
};

/**
 * A vendor call that failed. `message` is safe to show a user: no keys, URLs or vendor internals.
 * `retryable` says whether trying again later may help (429, 5xx, time-outs), which the job queue honours.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** For the log only: vendor status and error code, never shown to users. */
    readonly internal: string = "",
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
