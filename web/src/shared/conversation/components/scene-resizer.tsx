// The handle between the story text and the scene on a desktop: drag it, or focus it and use the arrow keys
// (Home and End for the limits), to give the scene more or less of the width. Its value is the story text's
// share, so moving it right (or pressing the right arrow) gives the text more room. The width is remembered
// when the drag or the key press ends.
import type { KeyboardEvent, PointerEvent } from "react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { SCENE_WIDTH_MAX, SCENE_WIDTH_MIN } from "../../../lib/storage";

/** One arrow key press moves the handle by this much of the width, in percent. */
const KEY_STEP = 2;

interface SceneResizerProps {
  /** The scene's share of the width, in percent. */
  sceneWidth: number;
  /** While dragging: the width to show now. */
  onPreview: (sceneWidth: number) => void;
  /** The width to keep. */
  onChoose: (sceneWidth: number) => void;
  className?: string;
}

export function SceneResizer({ sceneWidth, onPreview, onChoose, className = "" }: SceneResizerProps) {
  const { t } = useTranslation("conversation");
  const dragging = useRef(false);
  const latest = useRef(sceneWidth);
  latest.current = sceneWidth;

  /** The scene's share if the handle stood at this pointer position (the scene is on the right). */
  const widthAt = (event: PointerEvent<HTMLDivElement>) => {
    const view = event.currentTarget.parentElement?.getBoundingClientRect();
    if (!view || view.width === 0) return latest.current;
    return ((view.right - event.clientX) / view.width) * 100;
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.preventDefault();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) onPreview(widthAt(event));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    onChoose(widthAt(event));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next =
      event.key === "ArrowLeft"
        ? sceneWidth + KEY_STEP
        : event.key === "ArrowRight"
          ? sceneWidth - KEY_STEP
          : event.key === "Home"
            ? SCENE_WIDTH_MAX
            : event.key === "End"
              ? SCENE_WIDTH_MIN
              : null;
    if (next === null) return;
    event.preventDefault();
    onChoose(next);
  };

  const textShare = 100 - sceneWidth;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is the ARIA pattern for a splitter; <hr> cannot take focus
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={t("sceneResizer.label")}
      aria-valuemin={100 - SCENE_WIDTH_MAX}
      aria-valuemax={100 - SCENE_WIDTH_MIN}
      aria-valuenow={textShare}
      aria-valuetext={t("sceneResizer.valueText", { share: textShare })}
      title={t("sceneResizer.title")}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      className={`group relative z-10 w-2 shrink-0 cursor-col-resize touch-none outline-none ${className}`}
    >
      <span
        aria-hidden="true"
        className="absolute inset-y-0 left-1/2 w-px -translate-x-1/2 bg-line transition-colors group-hover:w-0.5 group-hover:bg-accent-500 group-focus-visible:w-0.5 group-focus-visible:bg-accent-500"
      />
    </div>
  );
}
