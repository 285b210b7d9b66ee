// On a phone the story header is one line (issue #46): the title gets the room, so Share & export, Story Cards,
// What the narrator sees and What the camera sees fold into one "More story tools" menu beside Story Settings
// and Close. Wider screens show them as icon buttons (StoryToolButtons). A Radix menu (roles, roving focus,
// Escape); not modal, as the app's CSP refuses the style element a modal menu injects.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Camera, Contact, EllipsisVertical, Eye, type LucideIcon, Share2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "../../../components/button-classes";

export type StoryTool = "share" | "cards" | "context" | "camera";

const TOOLS: {
  tool: StoryTool;
  label: "shareExport" | "storyCards" | "narratorSees" | "cameraSees";
  Icon: LucideIcon;
}[] = [
  { tool: "share", label: "shareExport", Icon: Share2 },
  { tool: "cards", label: "storyCards", Icon: Contact },
  { tool: "context", label: "narratorSees", Icon: Eye },
  { tool: "camera", label: "cameraSees", Icon: Camera },
];

const itemClasses =
  "flex min-h-11 cursor-pointer items-center gap-3 rounded-xl px-3 py-1.5 text-sm font-medium text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2";

/** The four tools as icon buttons: hidden on a phone, where the menu holds them. */
export function StoryToolButtons({ onOpen }: { onOpen: (tool: StoryTool) => void }) {
  const { t } = useTranslation("stories");
  return TOOLS.map(({ tool, label, Icon }) => (
    <button
      key={tool}
      type="button"
      onClick={() => onOpen(tool)}
      aria-label={t(`storyInterface.${label}`)}
      title={t(`storyInterface.${label}`)}
      className={`${iconButtonClasses} max-sm:hidden`}
    >
      <Icon aria-hidden="true" className="size-5" />
    </button>
  ));
}

/** The same four tools in one menu: shown on a phone only. */
export function StoryToolsMenu({ onOpen }: { onOpen: (tool: StoryTool) => void }) {
  const { t } = useTranslation("stories");
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={t("storyInterface.moreTools")}
        title={t("storyInterface.moreTools")}
        className={`${iconButtonClasses} sm:hidden`}
      >
        <EllipsisVertical aria-hidden="true" className="size-5" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          collisionPadding={12}
          className="z-[70] w-64 max-w-[calc(100vw-1.5rem)] rounded-2xl border border-line bg-surface p-2 text-ink shadow-lifted motion-safe:animate-fade-in"
        >
          {TOOLS.map(({ tool, label, Icon }) => (
            <DropdownMenu.Item key={tool} className={itemClasses} onSelect={() => onOpen(tool)}>
              <Icon aria-hidden="true" className="size-5 shrink-0 text-ink-muted" />
              {t(`storyInterface.${label}`)}
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
