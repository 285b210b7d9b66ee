import { Clapperboard, ImageIcon, MessageSquare, Play, SendHorizontal } from "lucide-react";
import { useTranslation } from "react-i18next";
import { art } from "./landing-art";

/** The hero's picture of the product: a story in progress, its narrator's turn and the painted scene. */
export function StoryWindow() {
  const { t } = useTranslation("landing");
  const scene = art("castleDragon");
  return (
    <figure className="relative mx-auto w-full max-w-xl lg:max-w-none">
      <div
        aria-hidden="true"
        className="bg-primary-gradient absolute -inset-4 -z-10 rounded-[40px] opacity-25 blur-3xl dark:opacity-35"
      />
      <div className="overflow-hidden rounded-3xl border border-line bg-surface shadow-lifted">
        <div className="flex h-12 items-center gap-3 border-b border-line px-4">
          <span aria-hidden="true" className="flex gap-1.5">
            <span className="size-2.5 rounded-full bg-[#ff5f57]" />
            <span className="size-2.5 rounded-full bg-[#febc2e]" />
            <span className="size-2.5 rounded-full bg-[#28c840]" />
          </span>
          <span className="truncate text-sm font-semibold">{t("storyWindow.title")}</span>
          <span className="ms-auto rounded-full bg-accent-soft px-2.5 py-0.5 text-xs font-medium text-accent-ink">
            {t("storyWindow.chapter")}
          </span>
        </div>

        <div className="relative aspect-[4/3] bg-surface-2">
          <img
            src={scene.src}
            alt={scene.alt}
            width={1600}
            height={1000}
            fetchPriority="high"
            className="absolute inset-0 size-full object-cover"
          />
          <span className="absolute top-4 inset-e-4 inline-flex items-center gap-1.5 rounded-full bg-black/60 px-3 py-1 text-xs font-semibold text-white backdrop-blur-md">
            <ImageIcon aria-hidden="true" className="size-3.5" />
            {t("storyWindow.scene")}
          </span>
          <div className="absolute inset-x-3 bottom-3 rounded-2xl border border-white/10 bg-black/65 p-3 text-white backdrop-blur-md sm:inset-x-4 sm:bottom-4 sm:p-4">
            <p className="flex items-center gap-2 text-xs font-semibold tracking-wide text-white/80 uppercase">
              <MessageSquare aria-hidden="true" className="size-3.5" />
              {t("storyWindow.narrator")}
            </p>
            <p className="mt-1 text-[13px] leading-5 sm:mt-1.5 sm:text-sm sm:leading-6">
              {t("storyWindow.narration")}
            </p>
          </div>
        </div>

        <div aria-hidden="true" className="flex items-center gap-2 border-t border-line p-3">
          <div className="flex h-10 min-w-0 flex-1 items-center truncate rounded-xl bg-surface-2 px-4 text-sm text-ink-muted">
            {t("storyWindow.prompt")}
          </div>
          <span className="hidden h-10 items-center gap-1 rounded-xl border border-line px-3 text-xs font-medium text-ink-muted sm:inline-flex">
            <Clapperboard className="size-3.5" />
            {t("storyWindow.video")}
          </span>
          <span className="bg-primary-gradient grid size-10 place-items-center rounded-xl text-white">
            <SendHorizontal className="size-4" />
          </span>
        </div>
      </div>

      <div className="absolute top-[42%] -inset-s-4 hidden items-center gap-3 rounded-2xl border border-line bg-surface p-2 pe-4 shadow-lifted sm:flex lg:-inset-s-12">
        <span className="relative size-14 overflow-hidden rounded-xl">
          <img src={art("lanternForest").src} alt="" className="size-full object-cover" />
          <span className="absolute inset-0 grid place-items-center bg-black/30">
            <Play aria-hidden="true" className="size-4 fill-white text-white" />
          </span>
        </span>
        <span className="flex flex-col">
          <span className="text-sm font-semibold">{t("storyWindow.clipReady")}</span>
          <span className="text-xs text-ink-muted">{t("storyWindow.clipMeta")}</span>
        </span>
      </div>
      <figcaption className="sr-only">{t("storyWindow.caption")}</figcaption>
    </figure>
  );
}
