// "Use this seed" from outside the Studio (the Gallery's details panel, decision 0149): the picture's prompt,
// seed and shape wait here, in memory, until the Studio opens and takes them into its composer. Also the
// shape a picture's size is, which the Studio's results and the Gallery both read.
import { ASPECT_RATIOS, type AspectRatio } from "@storyverse/contract/generation-settings";
import { Sprout } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../components/button";
import { useView } from "./view-provider";

export interface StudioDraft {
  prompt: string;
  seed: number;
  /** The picture's shape when it is one of the six; null: the Studio keeps its own. */
  shape: AspectRatio | null;
}

let pending: StudioDraft | null = null;

/** Leaves a draft for the Studio (the newest wins). */
export function offerStudioDraft(draft: StudioDraft): void {
  pending = draft;
}

/** The draft left for the Studio, once: a second call answers null. */
export function takeStudioDraft(): StudioDraft | null {
  const draft = pending;
  pending = null;
  return draft;
}

/** A picture's shape when it is one of the six (within a pixel of rounding), else null. */
export function shapeOf(
  width: number | null | undefined,
  height: number | null | undefined,
): AspectRatio | null {
  if (!width || !height) return null;
  return (
    ASPECT_RATIOS.find((ratio) => {
      const [w, h] = ratio.split(":").map(Number) as [number, number];
      return Math.abs(width / height - w / h) < 0.02;
    }) ?? null
  );
}

/** "Use this seed": opens the Studio with the picture's seed, shape and prompt in its composer. */
export function UseThisSeedButton({
  prompt,
  seed,
  width,
  height,
}: {
  prompt: string;
  seed: number;
  width: number | null;
  height: number | null;
}) {
  const { t } = useTranslation("studio");
  const { navigate } = useView();
  return (
    <Button
      variant="ghost"
      size="xs"
      className="ms-2"
      icon={<Sprout aria-hidden="true" className="size-3.5 text-accent-ink" />}
      onClick={() => {
        offerStudioDraft({ prompt, seed, shape: shapeOf(width, height) });
        navigate("studio");
      }}
    >
      {t("useThisSeed")}
    </Button>
  );
}
