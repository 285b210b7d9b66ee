import { Play } from "lucide-react";
import { type Artwork, art } from "./landing-art";
import { SectionHeading } from "./section-heading";

interface Creation {
  title: string;
  description: string;
  image: Artwork;
  badge?: string;
}

const CREATIONS: Creation[] = [
  {
    title: "Living Characters",
    description:
      "Heroes and rivals who keep their face, their gear and their history from one scene to the next.",
    image: art.wandererPortrait,
  },
  {
    title: "Evolving Artifacts",
    description: "Relics, blades and heirlooms that gather scars, glow and lore as your story unfolds.",
    image: art.starRelic,
  },
  {
    title: "Cinematic Worlds",
    description: "Sweeping 2K vistas, from nebula-lit peaks to rain-soaked neon cities.",
    image: art.nebulaPeaks,
  },
  {
    title: "5-Second Cinematic Motion Stories",
    description:
      "Turn any scene into a 5-second motion clip: breaking waves, a sweeping beam, a storm that breathes.",
    image: art.oceanLighthouse,
    badge: "0:05",
  },
  {
    title: "Interactive RPG Games",
    description: "A never-ending adventure where every choice you type is narrated and illustrated.",
    image: art.rpgDungeon,
  },
  {
    title: "Product Prototypes",
    description: "Visualise a concept in batches of four, then refine it with your own reference images.",
    image: art.prototypeHeadphones,
  },
];

export function CreateSection() {
  return (
    <section id="create" aria-labelledby="create-title" className="scroll-mt-16 py-24 sm:py-32">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="create-title" eyebrow="Possibilities" title="What You Can Create">
          One narrator, one studio, endless formats. Here is where creators start.
        </SectionHeading>
        <ul className="mt-16 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {CREATIONS.map((item) => (
            <li
              key={item.title}
              className="group flex flex-col overflow-hidden rounded-3xl border border-line bg-surface shadow-soft transition duration-200 hover:-translate-y-0.5 hover:shadow-lifted"
            >
              <div className="relative aspect-[4/3] overflow-hidden bg-surface-2">
                <img
                  src={item.image.src}
                  alt={item.image.alt}
                  width={1600}
                  height={1000}
                  loading="lazy"
                  className="size-full object-cover transition duration-200 group-hover:scale-[1.03]"
                />
                {item.badge ? (
                  <span className="absolute top-4 left-4 inline-flex items-center gap-1.5 rounded-full bg-black/65 px-3 py-1 text-xs font-semibold text-white backdrop-blur-md">
                    <Play aria-hidden="true" className="size-3 fill-white" />
                    <span className="sr-only">Motion clip, </span>
                    {item.badge}
                  </span>
                ) : null}
              </div>
              <div className="flex flex-1 flex-col p-6">
                <h3 className="text-lg font-semibold tracking-tight">{item.title}</h3>
                <p className="mt-2 leading-7 text-ink-muted">{item.description}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
