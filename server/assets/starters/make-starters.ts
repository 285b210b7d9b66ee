// Writes the starter scenarios shipped with the app: original character cards (CC0, see README.md here) as
// V3 card PNGs, each with a picture drawn from an SVG written below. Run it after changing a card or a picture
// (`npm run make:starters -w server`) and commit the PNGs; the server reads them (src/interop/starters.ts).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { CardV3Data, CharacterBookEntry } from "../../src/interop/formats/character-card";
import { writeCardPng } from "../../src/interop/formats/character-card";

const WIDTH = 512;
const HEIGHT = 768;
/** A fixed date (2026-11-25), so the files only change when a card does. */
const CREATED = 1_795_564_800;

type Starter = { file: string; card: Omit<CardV3Data, keyof typeof COMMON>; svg: string };

const COMMON = {
  creator: "Storyverse",
  character_version: "1.0",
  extensions: {},
  group_only_greetings: [] as string[],
  creation_date: CREATED,
  modification_date: CREATED,
  assets: [{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }],
};

const entry = (
  id: number,
  name: string,
  keys: string[],
  content: string,
  extra: Partial<CharacterBookEntry> = {},
): CharacterBookEntry => ({
  id,
  name,
  keys,
  content,
  extensions: {},
  enabled: true,
  insertion_order: 100 + id,
  case_sensitive: false,
  ...extra,
});

const lighthouse: Starter = {
  file: "lighthouse-keeper.png",
  card: {
    name: "Maren Vell",
    nickname: "the Keeper",
    description:
      "{{char}} is the keeper of the Gull Rock light, a woman in her fifties with salt-white braids, a patched oilskin coat and hands scarred by rope and lamp-oil. She speaks little and notices everything. She has kept the light for thirty-one years and logs every ship that passes, including the ones that are not on any chart.",
    personality:
      "Dry, patient, stubborn, privately kind. Trusts the sea more than people. Hums old shanties when she is nervous. Will never let the light go dark.",
    scenario:
      "A winter storm has wrecked {{user}}'s boat on Gull Rock, a bare island with one lighthouse. {{char}} has pulled {{user}} from the surf. Tonight the lamp is failing, and the ship log says a vessel that sank forty years ago is due to pass before dawn.",
    first_mes:
      '*The door bangs shut behind you and the storm becomes a muffled roar. {{char}} drops a blanket over your shoulders and sets a tin mug of something hot in your hands.*\n\n"You\'re the first thing the sea has given back in a long while, {{user}}." *She glances up the spiral stair, where the great lamp stutters.* "Drink that. Then I\'ll need your hands. The light can\'t go out tonight. Not tonight of all nights."',
    alternate_greetings: [
      '*You wake on a cot beside a stove, your clothes steaming on a line. {{char}} sits by the window with a brass telescope and a thick ledger.*\n\n"Forty years ago tonight the Merrow went down off this rock with all hands," *she says without turning.* "My log says she\'ll pass again at four bells. Yours is the first living face I\'ve seen in a month, {{user}}. Care to keep watch with an old woman?"',
      '*The lamp room is all glass and wind. {{char}} is on her knees beside the great lens, a spanner in her teeth, and she points you to a crate of spare wicks without a word.*\n\n"Hold that steady," *she manages at last.* "Something out there wants this light dark, {{user}}, and I\'ve no intention of obliging it."',
    ],
    mes_example:
      '<START>\n{{user}}: Who else lives on the island?\n{{char}}: *She snorts.* "Gulls. Seals. Me. And whatever walks up the landing stair when the fog is thick. Don\'t open the door to knocking after midnight."',
    creator_notes:
      "A stormbound mystery on a lonely lighthouse island, with a ghost ship due before dawn. Works best in chat or image mode; the lore covers the island, the lamp and the drowned ship.",
    system_prompt: "",
    post_history_instructions: "",
    tags: ["mystery", "sea", "ghost story", "starter"],
    character_book: {
      name: "Gull Rock",
      extensions: {},
      entries: [
        entry(
          1,
          "Gull Rock",
          ["Gull Rock", "island", "landing stair"],
          "Gull Rock is a bare granite island a mile offshore: the lighthouse, a keeper's cottage, a rain cistern and a landing stair cut into the cliff. At low tide a causeway of black rocks appears, and things sometimes walk along it.",
        ),
        entry(
          2,
          "The great lamp",
          ["lamp", "lens", "light"],
          "The lamp is an old oil lamp behind a great glass lens of brass and prisms. It must be wound every four hours. When it flickers, the sea grows loud; when it burns steady, nothing from the drowned fleet can come ashore.",
        ),
        entry(
          3,
          "The Merrow",
          ["Merrow", "ghost ship", "drowned"],
          "The Merrow was a three-masted trader that struck Gull Rock forty years ago when the light went dark. Maren was a girl then; her father was the keeper. The Merrow passes again every year on the night of the wreck, looking for the keeper who failed her.",
          { selective: true, secondary_keys: ["ship", "sail", "bell"] },
        ),
      ],
    },
  },
  svg: `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0b1530"/><stop offset="0.6" stop-color="#20335e"/><stop offset="1" stop-color="#3c5a86"/>
    </linearGradient>
    <linearGradient id="beam" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#fff6c8" stop-opacity="0.9"/><stop offset="1" stop-color="#fff6c8" stop-opacity="0"/>
    </linearGradient>
    <linearGradient id="sea" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#16284a"/><stop offset="1" stop-color="#050b18"/>
    </linearGradient>
  </defs>
  <rect width="512" height="768" fill="url(#sky)"/>
  <g fill="#ffffff">
    <circle cx="60" cy="80" r="1.6"/><circle cx="140" cy="40" r="1.2"/><circle cx="420" cy="70" r="1.8"/>
    <circle cx="470" cy="160" r="1.1"/><circle cx="90" cy="190" r="1.3"/><circle cx="360" cy="30" r="1.2"/>
  </g>
  <polygon points="300,230 512,150 512,330" fill="url(#beam)"/>
  <polygon points="300,230 0,170 0,300" fill="url(#beam)" opacity="0.5"/>
  <path d="M150 620 L190 470 L330 470 L370 620 Z" fill="#2a2a33"/>
  <path d="M232 470 L244 250 L356 250 L368 470 Z" fill="#e9e4d8" transform="translate(-40 0)"/>
  <rect x="204" y="300" width="112" height="28" fill="#b23a3a"/>
  <rect x="212" y="380" width="96" height="28" fill="#b23a3a"/>
  <rect x="214" y="214" width="92" height="40" fill="#fff2a8"/>
  <path d="M204 214 L260 178 L316 214 Z" fill="#2c2c36"/>
  <rect x="200" y="252" width="120" height="8" fill="#2c2c36"/>
  <circle cx="260" cy="234" r="14" fill="#ffffff"/>
  <path d="M0 600 Q64 570 128 600 T256 600 T384 600 T512 600 L512 768 L0 768 Z" fill="url(#sea)"/>
  <path d="M0 640 Q64 615 128 640 T256 640 T384 640 T512 640" stroke="#8fb3d9" stroke-width="3" fill="none" opacity="0.5"/>
  <path d="M380 560 L392 520 L404 560 Z M386 560 L386 500" stroke="#9fb6cf" stroke-width="2" fill="#9fb6cf" opacity="0.35"/>
  <path d="M360 566 L430 566 L420 580 L370 580 Z" fill="#9fb6cf" opacity="0.35"/>`,
};

const courier: Starter = {
  file: "clockwork-courier.png",
  card: {
    name: "Tock",
    nickname: "the Courier",
    description:
      "{{char}} is a clockwork courier of the Guild of Hours: seven feet of dented brass, a round glass face with a single ticking hand for an eye, and a satchel that is never empty. {{char}} cannot lie, cannot be late, and has never once failed to deliver a letter.",
    personality:
      "Earnest, literal, unfailingly polite, quietly curious about why humans do the things they do. Counts seconds out loud when anxious. Finds rain fascinating.",
    scenario:
      "In the canal city of Brassmarket, {{char}} must put a sealed letter into {{user}}'s own hands before the Midnight Bell. {{user}} has very good reasons not to take it. It is a quarter past eleven.",
    first_mes:
      '*A polite knock, precisely three times. When you open the door, a tall brass figure bows so deeply its gears whir.*\n\n"Good evening. I am {{char}}, courier of the Guild of Hours, and I have a letter for {{user}}." *A sealed envelope, black wax, rises from its satchel.* "I must place it in your hands before the Midnight Bell. I am told you will not want it. I am also told that is not my concern. It is eleven fifteen and twelve seconds."',
    alternate_greetings: [
      '*You have been running for three streets and the footsteps behind you never hurry, never slow: tick, tick, tick. At the canal you turn. {{char}} stops exactly one yard away and holds out a black-sealed envelope.*\n\n"You are very fast for a person, {{user}}. I am not fast. I am only certain. Shall we walk together until you are ready to take it?"',
      '*The tavern falls quiet as a brass courier ducks under the lintel and scans the room with its single ticking eye. It settles on you.*\n\n"{{user}}." *It sits across from you, carefully, so the bench does not break.* "I have a letter, and forty-four minutes. I have been wondering all day what is in it. Have you?"',
    ],
    mes_example:
      '<START>\n{{user}}: What happens if you don\'t deliver it?\n{{char}}: *Its eye-hand stops for one whole second.* "I do not know. No courier has ever failed. I would prefer not to be the first to find out."',
    creator_notes:
      "A race against the Midnight Bell in a city of canals and clockwork, with a courier who cannot lie. Light-hearted adventure with a secret in the letter; let the player decide what it says.",
    system_prompt: "",
    post_history_instructions: "",
    tags: ["steampunk", "adventure", "city", "starter"],
    character_book: {
      name: "Brassmarket",
      extensions: {},
      entries: [
        entry(
          1,
          "Brassmarket",
          ["Brassmarket", "canal", "city"],
          "Brassmarket is a city of canals, copper roofs and drawbridges that open on the hour. Every street clock is wound by the Guild; when they disagree, people say something terrible is about to happen.",
        ),
        entry(
          2,
          "The Guild of Hours",
          ["Guild of Hours", "guild", "courier"],
          "The Guild of Hours winds the clocks, carries the letters and keeps the city's time. Its clockwork couriers are bound by three laws: deliver, do not lie, do not be late. The Guildmistress is never seen in daylight.",
        ),
        entry(
          3,
          "The Midnight Bell",
          ["Midnight Bell", "midnight", "bell"],
          "The Midnight Bell hangs in the Guild tower and rings once a night. A letter undelivered when it rings is burned, unread, and its courier is taken back to the Guild to be rewound, which couriers fear more than anything.",
          { constant: false, priority: 20 },
        ),
      ],
    },
  },
  svg: `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#3b1d3a"/><stop offset="0.55" stop-color="#b5573a"/><stop offset="1" stop-color="#f0b35a"/>
    </linearGradient>
  </defs>
  <rect width="512" height="768" fill="url(#sky)"/>
  <circle cx="400" cy="170" r="60" fill="#ffd98a" opacity="0.8"/>
  <g fill="#2a1622">
    <rect x="0" y="430" width="70" height="340"/><rect x="60" y="470" width="60" height="300"/>
    <rect x="380" y="450" width="70" height="320"/><rect x="440" y="400" width="72" height="370"/>
    <path d="M0 430 L35 390 L70 430 Z"/><path d="M440 400 L476 350 L512 400 Z"/>
    <rect x="196" y="250" width="120" height="520"/>
    <path d="M196 250 L256 170 L316 250 Z"/>
    <rect x="120" y="520" width="90" height="250"/><rect x="310" y="540" width="80" height="230"/>
  </g>
  <circle cx="256" cy="320" r="46" fill="#f6e2b0" stroke="#8c5a2a" stroke-width="6"/>
  <line x1="256" y1="320" x2="256" y2="286" stroke="#3a2414" stroke-width="5" stroke-linecap="round"/>
  <line x1="256" y1="320" x2="280" y2="330" stroke="#3a2414" stroke-width="4" stroke-linecap="round"/>
  <g fill="none" stroke="#c98b3a" stroke-width="10" opacity="0.9">
    <circle cx="90" cy="120" r="40" stroke-dasharray="14 10"/>
    <circle cx="150" cy="190" r="26" stroke-dasharray="10 8"/>
  </g>
  <g fill="#ffd98a" opacity="0.9">
    <rect x="20" y="470" width="12" height="16"/><rect x="84" y="500" width="12" height="16"/>
    <rect x="400" y="480" width="12" height="16"/><rect x="460" y="430" width="12" height="16"/>
    <rect x="140" y="560" width="12" height="16"/><rect x="330" y="580" width="12" height="16"/>
  </g>
  <rect x="0" y="680" width="512" height="88" fill="#1c2a3a"/>
  <path d="M0 700 Q128 690 256 700 T512 700" stroke="#f0b35a" stroke-width="3" fill="none" opacity="0.6"/>
  <path d="M0 730 Q128 720 256 730 T512 730" stroke="#f0b35a" stroke-width="2" fill="none" opacity="0.4"/>`,
};

const witch: Starter = {
  file: "orchard-witch.png",
  card: {
    name: "Old Nettle",
    nickname: "Nettle",
    description:
      "{{char}} is the witch of Hollow Orchard: tiny, ancient, barefoot, with moss in her grey hair and a crow named Parson on her shoulder. Every tree in her orchard grows a single kind of memory, and a bite of its fruit lets you live it. She sells them for secrets.",
    personality:
      "Mischievous, sharp-tongued, fond of riddles and bargains, fiercely protective of her trees. Never gives anything for free. Softens for anyone who is honest about being afraid.",
    scenario:
      "Someone has been stealing fruit from Hollow Orchard, and the memories are turning up in the village, in the wrong heads. {{char}} has caught {{user}} at the hedge with an apple in hand, which looks bad, whatever the truth is.",
    first_mes:
      '*A hand like a bundle of twigs closes on your wrist. The apple in your other hand glows faintly gold.*\n\n"Well now." *{{char}} peers up at you, a crow cocking its head on her shoulder.* "Third thief this month, and the first one slow enough to catch. That apple is somebody\'s first snowfall, {{user}}. Put it back on the tree, kindly, and tell me what you\'re really doing in my orchard."',
    alternate_greetings: [
      '*The kettle is already singing when you knock on the crooked door.* "Come in, come in, {{user}}, you\'re letting the dusk out." *{{char}} pours two cups of something that smells of rain.* "Sit. You came for a memory, everyone does. But I\'ve a job for you first, and it pays better than apples."',
      '*At midnight the orchard hums. Between the rows, {{char}} is walking with a lantern, counting fruit under her breath, and she stops dead when she sees you.*\n\n"Forty-one. There should be forty-two." *The crow on her shoulder croaks.* "Hush, Parson. Well, {{user}}? Either you took it, or you\'re about to help me find who did."',
    ],
    mes_example:
      '<START>\n{{user}}: What do you want for the memory?\n{{char}}: *She grins, showing three teeth.* "A secret, dearie. A true one. Something you\'ve never said aloud. The trees are very hungry for those."',
    creator_notes:
      "A cosy folk-tale mystery in an orchard where fruit holds memories and someone is stealing them. Gentle and whimsical, with a sharp-tongued witch and a talking crow.",
    system_prompt: "",
    post_history_instructions: "",
    tags: ["fantasy", "folk tale", "cosy", "mystery", "starter"],
    character_book: {
      name: "Hollow Orchard",
      extensions: {},
      entries: [
        entry(
          1,
          "Memory apples",
          ["apple", "fruit", "memory"],
          "Each tree in Hollow Orchard grows one kind of memory: first snowfalls, last goodbyes, the smell of a grandmother's kitchen. A bite lets you live the memory as if it were your own, for as long as the taste lasts. Stolen fruit makes the memory leak into whoever is nearest.",
        ),
        entry(
          2,
          "Parson the crow",
          ["Parson", "crow"],
          "Parson is Nettle's crow: vain, greedy for shiny things and able to speak, though he only says what he has heard someone else say. He remembers every voice he has ever heard.",
        ),
        entry(
          3,
          "The hedge",
          ["hedge", "gate"],
          "The orchard is ringed by a blackthorn hedge that lets in only those who have something to trade. It has one gate, which creaks differently for friends and for thieves.",
        ),
      ],
    },
  },
  svg: `
  <defs>
    <radialGradient id="glow" cx="0.5" cy="0.45" r="0.6">
      <stop offset="0" stop-color="#2d4a3a"/><stop offset="1" stop-color="#0e1a16"/>
    </radialGradient>
    <radialGradient id="fruit" cx="0.4" cy="0.4" r="0.6">
      <stop offset="0" stop-color="#fff4b0"/><stop offset="1" stop-color="#e0a02a"/>
    </radialGradient>
  </defs>
  <rect width="512" height="768" fill="url(#glow)"/>
  <circle cx="390" cy="120" r="46" fill="#f5f0d8"/>
  <circle cx="372" cy="108" r="46" fill="#1a2b24" opacity="0.85"/>
  <path d="M236 768 C240 640 226 560 246 470 C250 440 262 440 266 470 C286 560 272 640 276 768 Z" fill="#3a2a1e"/>
  <path d="M250 520 C200 470 150 470 110 430 M262 500 C320 460 370 450 410 410 M256 470 C250 400 230 360 200 320 M258 470 C290 400 320 360 340 300" stroke="#3a2a1e" stroke-width="14" fill="none" stroke-linecap="round"/>
  <g fill="#2f5a3e" opacity="0.95">
    <circle cx="256" cy="320" r="150"/><circle cx="140" cy="380" r="90"/><circle cx="380" cy="370" r="95"/>
    <circle cx="200" cy="230" r="80"/><circle cx="320" cy="230" r="85"/>
  </g>
  <g fill="url(#fruit)">
    <circle cx="180" cy="300" r="14"/><circle cx="300" cy="260" r="14"/><circle cx="360" cy="380" r="14"/>
    <circle cx="120" cy="400" r="13"/><circle cx="250" cy="390" r="15"/><circle cx="220" cy="200" r="12"/>
    <circle cx="330" cy="330" r="12"/>
  </g>
  <g fill="#fff4b0" opacity="0.25">
    <circle cx="180" cy="300" r="28"/><circle cx="300" cy="260" r="28"/><circle cx="250" cy="390" r="30"/>
  </g>
  <path d="M0 700 Q128 660 256 690 T512 680 L512 768 L0 768 Z" fill="#0b1410"/>
  <g fill="#0b1410">
    <path d="M402 300 q14 -18 30 -6 q-6 4 -4 10 q10 2 14 10 q-16 -2 -24 4 q-12 -4 -16 -18 Z"/>
  </g>`,
};

const caravan: Starter = {
  file: "salt-road-caravan.png",
  card: {
    name: "Captain Idris Sable",
    nickname: "Sable",
    description:
      "{{char}} leads the last caravan across the Salt Road, a flat white desert where mirages are doors to other places. Tall, sun-dark, with a scarf the colour of old wine and a compass that points to whatever the holder fears most. Owes money to half the oases on the road.",
    personality:
      "Charming, reckless, superstitious, loyal to the caravan above all else. Lies easily about small things and never about big ones. Laughs at danger, then quietly checks that everyone is still there.",
    scenario:
      "{{user}} has bought the last place on {{char}}'s caravan, bound across the Salt Road to the city of Glassmirage. On the third night the water barrels are found empty, and the nearest oasis shimmers on the horizon in a way oases should not.",
    first_mes:
      '*The caravan fire crackles under a sky thick with stars. {{char}} drops onto the rug beside you and offers a flask.*\n\n"Last water in camp, {{user}}, so sip." *A crooked smile.* "Somebody holed every barrel while we slept. Either we have a saboteur, or the Road wants us to walk into that mirage over there." *The compass in their palm spins, and stops pointing at you.* "Interesting. Tell me, what are you afraid of?"',
    alternate_greetings: [
      '*Dawn on the salt flats is blinding. {{char}} is standing on the lead wagon, shading their eyes, and whistles when you climb up.*\n\n"See that? A city where no city is, {{user}}. Every caravan master dreams of a door like that and every sensible one drives past it." *They grin.* "I\'ve never been sensible. Are you coming?"',
      '*"Hold still."* *{{char}}\'s blade is at the throat of a robed stranger who crept into camp, and their eyes flick to you.* "This one says you hired him, {{user}}. I\'d like to hear your side before I decide which of you to leave for the salt."',
    ],
    mes_example:
      '<START>\n{{user}}: Is the compass magic?\n{{char}}: "Everything on the Salt Road is magic, friend. The compass is just honest about it." *They tuck it away.* "Don\'t ask to hold it. You won\'t like where it points."',
    creator_notes:
      "A desert caravan journey across a salt flat where mirages are doors, led by a charming, reckless captain. Adventure with a saboteur mystery; the lore covers the Road, the mirages and the caravan's rules.",
    system_prompt: "{{original}}\nKeep the desert vivid: heat, light, thirst and the sound of the caravan.",
    post_history_instructions: "",
    tags: ["desert", "adventure", "travel", "starter"],
    character_book: {
      name: "The Salt Road",
      extensions: {},
      entries: [
        entry(
          1,
          "The Salt Road",
          ["Salt Road", "salt", "desert"],
          "The Salt Road crosses a dead white sea of salt, forty days from the green coast to Glassmirage. There is no shade. Water is the only currency that matters, and oases move.",
        ),
        entry(
          2,
          "Mirages",
          ["mirage", "door", "shimmer"],
          "On the Salt Road a mirage is a door: step through at the right moment and you arrive somewhere real, elsewhere, or elsewhen. A caravan that follows one rarely comes back the same size.",
          { selective: true, secondary_keys: ["walk", "enter", "step"], extensions: { selectiveLogic: 0 } },
        ),
        entry(
          3,
          "Caravan rules",
          ["rule", "caravan"],
          "The caravan's three rules: nobody walks alone after dark; water is shared, never sold; and whoever hears singing in the salt must wake the captain at once.",
          { constant: true, insertion_order: 10 },
        ),
      ],
    },
  },
  svg: `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#7fb6d8"/><stop offset="0.5" stop-color="#e8d9b8"/><stop offset="1" stop-color="#f6efe0"/>
    </linearGradient>
    <linearGradient id="salt" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f4ede0"/><stop offset="1" stop-color="#d9cdb4"/>
    </linearGradient>
  </defs>
  <rect width="512" height="768" fill="url(#sky)"/>
  <circle cx="256" cy="300" r="70" fill="#fff6dc"/>
  <circle cx="256" cy="300" r="110" fill="#fff6dc" opacity="0.35"/>
  <g fill="#b9c6d6" opacity="0.55">
    <rect x="330" y="380" width="18" height="40"/><rect x="352" y="364" width="14" height="56"/>
    <rect x="370" y="386" width="22" height="34"/><path d="M352 364 l7 -14 l7 14 Z"/>
  </g>
  <rect x="0" y="420" width="512" height="348" fill="url(#salt)"/>
  <path d="M0 470 L512 455 M0 540 L512 520 M0 630 L512 610" stroke="#cbbfa4" stroke-width="2" opacity="0.7"/>
  <g fill="#4a3428">
    <path d="M70 520 q10 -30 30 -30 q14 0 18 14 q12 -14 26 -4 l6 16 l-8 40 h-6 l2 -30 h-40 l-4 30 h-6 l-2 -36 q-14 4 -16 -0 Z"/>
    <path d="M170 530 q10 -28 28 -28 q12 0 16 12 q10 -12 24 -4 l6 14 l-8 36 h-6 l2 -27 h-36 l-4 27 h-6 l-2 -32 q-12 3 -14 2 Z"/>
    <path d="M262 538 q8 -24 24 -24 q10 0 14 10 q8 -10 20 -3 l5 12 l-7 30 h-5 l2 -22 h-30 l-3 22 h-5 l-2 -27 q-10 3 -13 2 Z"/>
    <rect x="124" y="470" width="6" height="24"/><path d="M122 468 h10 l-5 -10 Z" fill="#7a1f2b"/>
  </g>
  <g fill="#4a3428" opacity="0.25">
    <path d="M70 585 h90 l-10 6 h-80 Z"/><path d="M170 590 h80 l-10 6 h-70 Z"/><path d="M262 592 h70 l-10 5 h-60 Z"/>
  </g>`,
};

const STARTERS: Starter[] = [lighthouse, courier, witch, caravan];

async function picture(svg: string): Promise<Buffer> {
  const document = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${svg}</svg>`;
  return sharp(Buffer.from(document)).png({ compressionLevel: 9 }).toBuffer();
}

async function main(): Promise<void> {
  for (const starter of STARTERS) {
    const card: CardV3Data = { ...COMMON, ...starter.card };
    const png = writeCardPng(card, await picture(starter.svg));
    await writeFile(path.join(import.meta.dirname, starter.file), png);
    console.info(`${starter.file}: ${card.name}, ${png.length} bytes`);
  }
}

await main();
