// The Updates & News page: what credits cost, the Stories, Studio and Gallery features,
// quick-start steps and tips. Updated weekly; support and billing live in the profile or account menu.
import { NEW_ACCOUNT_CREDITS } from "@storyverse/contract/accounts";
import { CREDIT_PACKS } from "@storyverse/contract/billing";
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import {
  ArrowRight,
  BookOpenText,
  CalendarClock,
  Clapperboard,
  Coins,
  Gift,
  Image as ImageIcon,
  Images,
  LifeBuoy,
  Lightbulb,
  type LucideIcon,
  MessageCircle,
  Sparkles,
  WandSparkles,
} from "lucide-react";
import { Button } from "../../../components/button";
import { creditLabel } from "../../../lib/credits";

export type NewsDestination = "stories" | "studio" | "library" | "subscription";

interface NewsPageProps {
  onOpen: (destination: NewsDestination) => void;
}

const PRICES: { icon: LucideIcon; label: string; cost: number; per: string }[] = [
  { icon: MessageCircle, label: "Chat message", cost: CREDIT_COSTS.chat, per: "per message" },
  { icon: ImageIcon, label: "Image", cost: CREDIT_COSTS.image, per: "per 2K image" },
  { icon: Clapperboard, label: "Video", cost: CREDIT_COSTS.video, per: "per 5-second clip" },
];

const FEATURES: {
  icon: LucideIcon;
  title: string;
  text: string;
  destination: NewsDestination;
  action: string;
}[] = [
  {
    icon: BookOpenText,
    title: "Stories",
    text: "Named, persistent adventures, like saved games. Each story keeps its title, its context, its chat with the AI narrator and a canvas showing the latest scene as a 2K image or a 5-second cinematic clip.",
    destination: "stories",
    action: "Open Stories",
  },
  {
    icon: WandSparkles,
    title: "Studio",
    text: "Image creation in batches of one to four. Bring up to 10 input images by upload, paste or from your gallery, reuse earlier results as inputs, and ask the advisor chat when a prompt needs work.",
    destination: "studio",
    action: "Open Studio",
  },
  {
    icon: Images,
    title: "Gallery",
    text: "Every image and video you generate, newest first, with the story it came from. Open any piece in the lightbox, step through with the arrow keys and download the original.",
    destination: "library",
    action: "Open Gallery",
  },
];

const STEPS: { title: string; text: string }[] = [
  {
    title: "Create a story",
    text: "In Stories, choose Create New Story, give it a name and, if you like, a context that sets the scene and the style of the first image.",
  },
  {
    title: "Talk to the narrator",
    text: "Type what your character does. Chat mode moves the story on in words; image mode also paints the scene in 2K.",
  },
  {
    title: "Bring a moment to life",
    text: "Switch to video mode for a 5-second cinematic clip of the scene. It appears on the canvas and in your gallery.",
  },
  {
    title: "Refine in the Studio",
    text: "Generate variations in batches, feed in reference images and reuse the results you like best.",
  },
];

const TIPS: string[] = [
  "Select earlier images in a story (they turn yellow) to keep a character or an artifact consistent in the next scene.",
  "Be specific about light, lens and mood: “golden hour, low angle, mist over the river” beats “a nice river”.",
  "Use chat mode to plan a scene cheaply, then switch to image or video mode when it is ready to be seen.",
  "Press Enter to send and Shift+Enter for a new line.",
  "Not sure how to phrase a prompt? Ask the advisor in the Studio.",
];

function credits(amount: number): string {
  return `${amount.toFixed(1)} ${creditLabel(amount)}`;
}

export function NewsPage({ onOpen }: NewsPageProps) {
  return (
    <div className="px-4 pb-16 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto max-w-5xl">
        <header className="pt-10 pb-8 sm:pt-12">
          <p className="inline-flex items-center gap-2 rounded-full border border-line bg-surface px-3 py-1 text-xs font-semibold text-accent-ink shadow-soft">
            <CalendarClock aria-hidden="true" className="size-3.5" />
            Updated weekly
          </p>
          <h1 id="view-title" className="mt-4 text-3xl font-semibold tracking-tight sm:text-4xl">
            Updates &amp; News
          </h1>
          <p className="mt-3 max-w-2xl text-lg leading-8 text-ink-muted">
            What's new in Storyverse, what everything costs and how to get the most out of it. This page is
            updated weekly.
          </p>
        </header>

        <section
          aria-labelledby="news-credits"
          className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
        >
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <h2 id="news-credits" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
                <Coins aria-hidden="true" className="size-5 text-accent-ink" />
                Credit prices
              </h2>
              <p className="mt-1 text-sm text-ink-muted">
                You pay per item, times how many you ask for: four images cost{" "}
                {credits(CREDIT_COSTS.image * 4)}.
              </p>
            </div>
            <p className="inline-flex items-center gap-2 self-start rounded-full bg-success/10 px-3 py-1 text-sm font-semibold text-success sm:self-auto">
              <Gift aria-hidden="true" className="size-4" />
              {NEW_ACCOUNT_CREDITS} free credits for every new account
            </p>
          </div>
          <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {PRICES.map(({ icon: Icon, label, cost, per }) => (
              <li key={label} className="flex items-center gap-4 rounded-2xl bg-surface-2 p-4">
                <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <div>
                  <p className="text-sm font-medium text-ink-muted">{label}</p>
                  <p className="text-lg font-semibold">{credits(cost)}</p>
                  <p className="text-xs text-ink-muted">{per}</p>
                </div>
              </li>
            ))}
          </ul>

          <h3 className="mt-8 text-base font-semibold">Credit packs</h3>
          <p className="mt-1 text-sm text-ink-muted">One-time purchases. Credits you buy never expire.</p>
          <ul className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
            {CREDIT_PACKS.map((pack) => (
              <li
                key={pack.name}
                className="flex flex-col rounded-2xl border border-line p-4 transition duration-200 hover:border-accent-400/60"
              >
                <p className="text-sm font-semibold">{pack.name}</p>
                <p className="mt-2 text-3xl font-semibold tracking-tight">${pack.price_usd}</p>
                <p className="mt-1 text-sm text-ink-muted">
                  {pack.credits} credits
                  {pack.bonus_credits > 0 ? (
                    <span className="ml-2 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-accent-ink">
                      +{pack.bonus_credits} bonus
                    </span>
                  ) : null}
                </p>
              </li>
            ))}
          </ul>
          <Button variant="secondary" size="sm" className="mt-6" onClick={() => onOpen("subscription")}>
            Manage Credits
            <ArrowRight aria-hidden="true" className="size-4" />
          </Button>
        </section>

        <section aria-labelledby="news-features" className="mt-12">
          <h2 id="news-features" className="text-xl font-semibold tracking-tight">
            What you can do
          </h2>
          <ul className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text, destination, action }) => (
              <li
                key={title}
                className="flex flex-col rounded-3xl border border-line bg-surface p-6 shadow-soft"
              >
                <span className="bg-primary-gradient grid size-11 place-items-center rounded-xl text-white">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="mt-5 text-lg font-semibold">{title}</h3>
                <p className="mt-2 flex-1 text-sm leading-6 text-ink-muted">{text}</p>
                <button
                  type="button"
                  onClick={() => onOpen(destination)}
                  className="mt-5 inline-flex items-center gap-2 self-start rounded-lg text-sm font-semibold text-accent-ink hover:underline"
                >
                  {action}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        </section>

        <div className="mt-12 grid grid-cols-1 gap-4 lg:grid-cols-[1.2fr_1fr]">
          <section
            aria-labelledby="news-start"
            className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
          >
            <h2 id="news-start" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              <Sparkles aria-hidden="true" className="size-5 text-accent-ink" />
              Quick start
            </h2>
            <ol className="mt-6 flex flex-col gap-5">
              {STEPS.map((step, index) => (
                <li key={step.title} className="flex gap-4">
                  <span
                    aria-hidden="true"
                    className="grid size-8 shrink-0 place-items-center rounded-full bg-accent-soft text-sm font-semibold text-accent-ink"
                  >
                    {index + 1}
                  </span>
                  <div>
                    <h3 className="font-semibold">{step.title}</h3>
                    <p className="mt-1 text-sm leading-6 text-ink-muted">{step.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </section>

          <section
            aria-labelledby="news-tips"
            className="rounded-3xl border border-line bg-surface p-6 shadow-soft sm:p-8"
          >
            <h2 id="news-tips" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
              <Lightbulb aria-hidden="true" className="size-5 text-accent-ink" />
              Tips
            </h2>
            <ul className="mt-6 flex flex-col gap-4">
              {TIPS.map((tip) => (
                <li key={tip} className="flex gap-3 text-sm leading-6 text-ink-muted">
                  <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-accent-500" />
                  {tip}
                </li>
              ))}
            </ul>
          </section>
        </div>

        <section
          aria-labelledby="news-support"
          className="mt-12 flex flex-col gap-4 rounded-3xl bg-accent-soft p-6 sm:flex-row sm:items-center sm:p-8"
        >
          <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-surface text-accent-ink shadow-soft">
            <LifeBuoy aria-hidden="true" className="size-6" />
          </span>
          <div className="flex-1">
            <h2 id="news-support" className="text-lg font-semibold text-ink">
              Support and billing
            </h2>
            <p className="mt-1 text-sm leading-6 text-ink">
              Questions about your account, credits or a payment? Open the profile in the sidebar or the
              account menu (your initial, top right) and choose Manage Credits: support and billing are both
              reached from there.
            </p>
          </div>
        </section>
      </div>
    </div>
  );
}
