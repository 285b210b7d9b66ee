// "What shaped this": under a story's finished narrator message, on demand, what its turn sent (docs/decisions/0105):
// the Story Cards (marking those whose portrait went to the painter), the Memory, the older turns recalled, the
// rolling summary and how many images the scene was painted from. It sits among the message's action buttons and opens on a line of its own.
import type { ShapedBy } from "@storyverse/contract/chat";
import { Layers } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/button";

export const SHAPED_BY_LABEL = "What shaped this";
export const SHAPED_BY_NOTHING = "Only the story so far";
export const PORTRAIT_USED = "portrait used";

export const referenceImagesText = (n: number) => `${n} reference ${n === 1 ? "image" : "images"}`;
/** "Recalled turn 5", "Recalled turns 5 and 41", "Recalled turns 5, 9 and 41". */
export const recalledTurnsText = (turns: number[]) =>
  turns.length === 1
    ? `Recalled turn ${turns[0]}`
    : `Recalled turns ${turns.slice(0, -1).join(", ")} and ${turns.at(-1)}`;

/** The lines of the panel, in the order the narrator's context holds them; empty when nothing shaped it. */
function shapedLines(shaped: ShapedBy) {
  return [
    ...shaped.cards.map((card) => ({
      key: `card-${card.id}`,
      text: card.name,
      portrait: card.portrait_used,
    })),
    ...(shaped.memory ? [{ key: "memory", text: "Memory", portrait: false }] : []),
    ...(shaped.recalled?.length
      ? [{ key: "recalled", text: recalledTurnsText(shaped.recalled), portrait: false }]
      : []),
    ...(shaped.summary ? [{ key: "summary", text: "Summary", portrait: false }] : []),
    ...(shaped.references > 0
      ? [{ key: "references", text: referenceImagesText(shaped.references), portrait: false }]
      : []),
  ];
}

export function WhatShapedThis({ shapedBy }: { shapedBy: ShapedBy }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const lines = shapedLines(shapedBy);
  return (
    <>
      <Button
        variant="ghost"
        size="xs"
        title="The Story Cards, Memory, recalled turns, summary and reference images this message was written from"
        aria-expanded={open}
        aria-controls={panelId}
        icon={<Layers aria-hidden="true" className="size-3.5" />}
        onClick={() => setOpen((shown) => !shown)}
      >
        {SHAPED_BY_LABEL}
      </Button>
      {open ? (
        <div
          id={panelId}
          className="basis-full rounded-xl border border-line bg-surface-2 px-3 py-2 text-xs text-ink-muted"
        >
          {lines.length === 0 ? (
            <p>{SHAPED_BY_NOTHING}</p>
          ) : (
            <ul aria-label={SHAPED_BY_LABEL} className="flex flex-wrap gap-x-3 gap-y-1">
              {lines.map((line) => (
                <li key={line.key} className="font-medium text-ink">
                  {line.text}
                  {line.portrait ? (
                    <span className="ml-1 font-normal text-ink-muted">({PORTRAIT_USED})</span>
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
