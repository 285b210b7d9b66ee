// "What shaped this": under a story's finished narrator message, on demand, what its turn sent (docs/decisions/0105):
// the Story Cards (marking those whose portrait went to the painter), the Memory, the older turns recalled, the
// rolling summary and how many images the scene was painted from. It sits among the message's action buttons and opens on a line of its own.
import type { ShapedBy } from "@storyverse/contract/chat";
import { Layers } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";

export const referenceImagesText = (n: number) =>
  i18n.t("conversation:shapedBy.referenceImages", { count: n });
/** "Recalled turn 5", "Recalled turns 5 and 41", "Recalled turns 5, 9 and 41". */
export const recalledTurnsText = (turns: number[]) =>
  turns.length === 1
    ? i18n.t("conversation:shapedBy.recalledTurn", { turn: turns[0] })
    : i18n.t("conversation:shapedBy.recalledTurns", {
        turns: turns
          .slice(0, -1)
          .map((turn) => formatNumber(turn))
          .join(", "),
        last: turns.at(-1),
      });

/** The lines of the panel, in the order the narrator's context holds them; empty when nothing shaped it. */
function shapedLines(shaped: ShapedBy) {
  return [
    ...shaped.cards.map((card) => ({
      key: `card-${card.id}`,
      text: card.name,
      portrait: card.portrait_used,
      userText: true,
    })),
    ...(shaped.memory
      ? [{ key: "memory", text: i18n.t("conversation:shapedBy.memory"), portrait: false, userText: false }]
      : []),
    ...(shaped.recalled?.length
      ? [{ key: "recalled", text: recalledTurnsText(shaped.recalled), portrait: false, userText: false }]
      : []),
    ...(shaped.summary
      ? [{ key: "summary", text: i18n.t("conversation:shapedBy.summary"), portrait: false, userText: false }]
      : []),
    ...(shaped.references > 0
      ? [
          {
            key: "references",
            text: referenceImagesText(shaped.references),
            portrait: false,
            userText: false,
          },
        ]
      : []),
  ];
}

export function WhatShapedThis({ shapedBy }: { shapedBy: ShapedBy }) {
  const { t } = useTranslation("conversation");
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const lines = shapedLines(shapedBy);
  return (
    <>
      <Button
        variant="ghost"
        size="xs"
        title={t("shapedBy.title")}
        aria-expanded={open}
        aria-controls={panelId}
        icon={<Layers aria-hidden="true" className="size-3.5" />}
        onClick={() => setOpen((shown) => !shown)}
      >
        {t("shapedBy.label")}
      </Button>
      {open ? (
        <div
          id={panelId}
          className="basis-full rounded-xl border border-line bg-surface-2 px-3 py-2 text-xs text-ink-muted"
        >
          {lines.length === 0 ? (
            <p>{t("shapedBy.nothing")}</p>
          ) : (
            <ul aria-label={t("shapedBy.label")} className="flex flex-wrap gap-x-3 gap-y-1">
              {lines.map((line) => (
                <li key={line.key} className="font-medium text-ink">
                  {line.userText ? <span data-user-text>{line.text}</span> : line.text}
                  {line.portrait ? (
                    <span className="ms-1 font-normal text-ink-muted">{t("shapedBy.portraitUsed")}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </>
  );
}
