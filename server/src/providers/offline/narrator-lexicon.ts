// The offline narrator's vocabulary: stop words it skips when picking key phrases, verbs that mark an
// imperative prompt, and the sentence templates it stitches into a story turn or a piece of prompt advice.
// Templates name their slots in braces; a template is only used when every slot it names has a value.

export const STOP_WORDS = new Set(
  (
    "a an the and or but if then so to of in on at by for with from into onto over under up down out off " +
    "about above across after against along among around before behind below beneath beside between beyond " +
    "through toward towards upon within without near is are was were be been being am do does did have has " +
    "had will would can could should shall may might must i me my mine myself you your yours yourself we us " +
    "our ours he him his she her hers it its they them their this that these those there here what which who " +
    "whom whose when where why how all any each every some no not just very too also again still only now " +
    "let lets let's i'm i've i'll i'd you're it's don't can't won't as than like while until once yet even " +
    "more most much many few other another such own same back away really maybe please something anything " +
    "thing things one try want need going get got make made take tell say see look go come"
  ).split(" "),
);

/** Words that start an imperative prompt ("open the door"), so it reads as the player's own action. */
export const ACTION_VERBS = new Set(
  (
    "open close walk run go climb enter leave take grab pick search look listen follow ask tell say shout " +
    "whisper call fight attack draw cast read write light throw push pull jump swim sail ride fly hide " +
    "wait rest sleep eat drink give offer show use touch knock step turn head approach explore investigate " +
    "examine inspect check try help save free break unlock lock raise lower speak sing pray summon " +
    "sneak flee chase hunt build craft buy sell trade kiss hug wake dig cross descend ascend return"
  ).split(" "),
);

/** Verbs a prompt uses for what happens ("the bell rings"): a noun phrase stops before them. */
export const EVENT_VERBS = new Set(
  (
    "ring rang fall fell rise rose roar howl burn glow shine shone appear arrive happen begin began start stop " +
    "grow shake tremble flicker echo move come came go went swim swam sink sank float land crash explode " +
    "collapse die wake woke scream cry sing sang call whisper emerge vanish disappear spin dance bark growl " +
    "hiss creak groan shatter drip flow pour blow blew sound seem become became stand stood sit sat lie lay " +
    "shift stir lean hold notice answer catch drift cling creep gather waver tighten carry fade rumble " +
    "is are was were has have had"
  ).split(" "),
);

export const OPENINGS = [
  "The air around {place} shifts, carrying {smell} and a hush that feels deliberate.",
  "{Light} falls across {place}, and every shadow seems to lean a little closer.",
  "For a moment {place} holds its breath around you.",
  "You have learned to read {place} the way others read faces, and right now it is uneasy.",
  "Somewhere beyond {place}, {sound} rises and fades again.",
  "The story of *{title}* tightens around you like a drawn bowstring.",
];

export const REACTIONS = [
  "{n1} answers almost at once, as though you were expected all along.",
  "For a heartbeat nothing moves; then {n1} stirs, and the world seems to rearrange itself around you.",
  "Something about {n1} is wrong, or perhaps too right: it feels familiar in a way you cannot name.",
  "{n1} is closer than you thought, and far stranger.",
  "A tremor runs from {n1} to the soles of your feet, quiet but unmistakable.",
  "You notice {n2} only now, half-hidden, patient, watching.",
  "{n1} and {n2} seem bound together by some thread you cannot yet see.",
];

export const SENSES = [
  "You smell {smell} and hear {sound} somewhere past {n2}.",
  "{Light} catches on {n1}, and for an instant every detail stands out, sharp as a blade.",
  "Your pulse is loud in your ears; beneath it, {sound}.",
  "The cold of {place} creeps into your fingers, sharp and clarifying.",
  "Dust drifts through {light}, slow as falling snow.",
  "The smell of {smell} clings to everything here.",
  "Somewhere close, {sound}, then nothing at all.",
];

export const CONTEXT_TIES = [
  "You think of {ctx}, and of everything it has cost to come this far.",
  "Everything you know about {ctx} suddenly feels close enough to touch.",
  "It is impossible not to connect this to {ctx}.",
  "Whatever this is, it is tangled up with {ctx}; you are sure of it now.",
  "{prev} from before is still on your mind, and this only deepens the mystery.",
];

export const DEVELOPMENTS = [
  "A path opens where there was none, narrow and inviting.",
  "Far off, a voice calls a name: maybe yours, maybe not.",
  "The ground gives the faintest sigh, like a door settling on old hinges.",
  "A light flickers at the edge of your vision and is gone before you can turn.",
  "The silence afterwards is heavier than any sound.",
  "Footprints that are not yours lead away into the dark.",
  "Something small and bright lies at your feet, as if dropped a moment ago.",
];

/** Closing lines: the narrator avoids any it has used in the turns it can still see. */
export const HOOKS = [
  "*Not yet,* you tell yourself. *Not until you understand.*",
  "Whatever comes next, you know you will not be the same on the other side of it.",
  "The next step is yours to take.",
  "Somewhere ahead, {n1} is only the beginning.",
  "You steady your breath. The night, the road, {n1}: all of it is waiting.",
  "*What now?* you wonder, and the world seems to wonder with you.",
  "Behind you, {sound} falls silent, as if the world is waiting for your answer.",
  "You have a choice to make, and {place} will not wait long for it.",
  "For now, {n1} keeps its secrets. For now.",
  "Your hand tightens. Whatever you do next, you mean to do it well.",
  "The moment stretches, thin as glass, waiting for you to break it.",
  "Somewhere in {place}, something has noticed you.",
  "It is only a beginning, and you both know it: you and {n1}.",
  "A decision gathers in you like a held breath.",
  "{Light} wavers, and you realise you have already decided.",
  "You look once more at {n1}, and then you move.",
];

/** Used when the prompt has no key nouns of its own. */
export const FALLBACK_NOUNS = ["path", "silence", "shadow", "lantern", "wind"];
export const FALLBACK_PLACES = ["the path ahead", "this strange place", "the old road", "the quiet ruins"];

export const SMELLS = [
  "rain on stone",
  "woodsmoke",
  "old parchment",
  "salt and iron",
  "crushed pine",
  "ozone",
];
export const SOUNDS = [
  "a distant bell",
  "the wind worrying at loose shutters",
  "slow dripping water",
  "wingbeats",
  "a half-heard song",
];
export const MOODS = [
  "mysterious",
  "hushed and expectant",
  "tense",
  "wondrous",
  "melancholy",
  "ominous",
  "hopeful",
];

/** How the SCENE line describes each time of day; the words also steer the offline painter. */
export const LIGHTING = {
  night: "a moonlit night with cold blue light, deep shadows and scattered stars",
  sunset: "golden-hour sunset light with a warm orange and violet sky",
  dawn: "soft dawn light in pink and gold haze",
  day: "clear daylight under a bright sky with crisp shadows",
} as const;

export const SETTINGS = {
  mountains: "a mountain valley with layered ridges fading into mist",
  forest: "a deep forest of tall pines",
  ocean: "a rocky coast above an open sea",
  desert: "rolling desert dunes",
  snow: "a snowy winter landscape",
  city: "a city of towering buildings and glowing windows",
  space: "the depths of space beneath a ringed planet",
  volcano: "a volcanic wasteland with glowing lava",
} as const;

export const COMPOSITIONS = [
  "cinematic wide shot, layered depth, strong silhouette",
  "low-angle composition, dramatic scale, atmospheric perspective",
  "rule-of-thirds framing, soft volumetric light, painterly detail",
];

/** Prompt-advisor building blocks: each bullet adds one concrete dimension to the user's idea. */
export const ADVICE_LIGHT = [
  "golden-hour rim light",
  "moody blue-hour light",
  "soft overcast light",
  "dramatic chiaroscuro lighting",
  "neon glow reflected on wet ground",
];
export const ADVICE_CAMERA = [
  "wide establishing shot",
  "low-angle hero shot",
  "close-up portrait, shallow depth of field",
  "aerial view",
  "over-the-shoulder view",
];
export const ADVICE_STYLE = [
  "painterly concept art",
  "Studio Ghibli-inspired watercolour",
  "cinematic photorealism",
  "flat vector illustration",
  "dark fantasy oil painting",
  "retro 80s sci-fi poster",
];
export const ADVICE_PALETTE = [
  "teal and orange palette",
  "muted earth tones",
  "pastel palette",
  "high-contrast black and gold",
  "cool blues with one warm accent",
];
export const ADVICE_MOMENT = [
  "the first light breaks through",
  "a storm is about to hit",
  "everything falls silent",
  "someone turns to look back",
];
export const ADVICE_FOCUS = [
  "a single glowing lantern",
  "a lone figure for scale",
  "a red cloak that catches the eye",
  "an ancient carved doorway",
  "a trail of footprints leading into the scene",
];

/** What a player may want more of, and the prompt words that deliver it. */
export const ADVICE_QUALITIES: Record<string, readonly string[]> = {
  dramatic: ["dramatic chiaroscuro lighting", "low-angle hero shot", "storm clouds breaking overhead"],
  epic: ["vast sense of scale", "wide establishing shot", "tiny figures for scale"],
  moody: ["moody blue-hour light", "drifting fog", "muted desaturated palette"],
  dark: ["low-key lighting", "deep shadows", "a single cold light source"],
  scary: ["deep shadows", "a single flickering light", "something half-seen in the dark"],
  creepy: ["a single flickering light", "unnatural stillness", "sickly green tint"],
  mysterious: ["drifting mist", "a half-hidden figure", "light from an unseen source"],
  realistic: ["cinematic photorealism", "natural light, 35mm lens", "true-to-life textures"],
  cinematic: ["anamorphic widescreen framing", "film grain", "teal and orange grade"],
  cute: ["soft pastel palette", "rounded shapes and big expressive eyes", "gentle storybook style"],
  cozy: ["warm lamplight", "soft knitted textures", "steam rising from a cup"],
  cosy: ["warm lamplight", "soft knitted textures", "steam rising from a cup"],
  peaceful: ["calm still water", "soft morning light", "wide open space"],
  bright: ["high-key lighting", "clear midday sun", "crisp saturated colour"],
  vibrant: ["saturated complementary colours", "bold colour blocking", "glowing highlights"],
  colorful: ["saturated complementary colours", "rainbow accents", "bold colour blocking"],
  colourful: ["saturated complementary colours", "rainbow accents", "bold colour blocking"],
  magical: ["glowing motes in the air", "soft magical light", "iridescent highlights"],
  dreamy: ["soft focus", "glowing haze", "pastel light leaks"],
  detailed: ["intricate fine detail", "sharp focus throughout", "rich surface texture"],
  futuristic: ["sleek chrome and neon", "holographic signage", "clean sci-fi architecture"],
  vintage: ["faded film photo look", "warm sepia tones", "soft grain"],
  minimal: ["clean negative space", "limited two-colour palette", "simple bold shapes"],
};

export const ADVICE_TIPS = [
  "Tip: lead with the subject, then the setting, the light and the style, and keep one clear focal point.",
  "Tip: one strong light source and one clear subject beat a long list of details.",
  "Tip: name the camera (close-up, wide shot, low angle) and the image model will frame it for you.",
  "Tip: describe what is in the picture, not what you want it to feel like; the mood follows the light.",
  "Tip: change one thing at a time between batches so you can see what each word does.",
];
