// The mask brush (decision 0148): a canvas laid over the picture, at the picture's own pixel size and scaled
// with it, on which the player brushes the region to repaint. Pointer events, so a mouse, a pen and a finger
// all paint (touch-action none: a finger paints instead of scrolling); only the primary pointer paints, so a
// second finger does not draw. With the keyboard, the arrow keys move the brush, Space or Enter paints where
// it is and Shift with an arrow paints a line. The strokes are kept in the picture's pixels (mask.ts makes
// the PNG from them); the canvas only shows them.
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MaskPoint, MaskStroke } from "./mask";

/** What the brushed region looks like over the picture (shown at half opacity by the canvas's style). */
const MASK_COLOUR = "#f43f5e";

function drawStroke(context: CanvasRenderingContext2D, stroke: MaskStroke): void {
  context.globalCompositeOperation = stroke.mode === "erase" ? "destination-out" : "source-over";
  context.fillStyle = MASK_COLOUR;
  context.strokeStyle = MASK_COLOUR;
  context.lineWidth = stroke.radius * 2;
  context.lineCap = "round";
  context.lineJoin = "round";
  const [first, ...rest] = stroke.points;
  if (!first) return;
  context.beginPath();
  if (rest.length === 0) {
    context.arc(first.x, first.y, stroke.radius, 0, Math.PI * 2);
    context.fill();
    return;
  }
  context.moveTo(first.x, first.y);
  for (const point of rest) context.lineTo(point.x, point.y);
  context.stroke();
}

export interface MaskCanvasProps {
  /** The picture's size in pixels: the canvas's and the strokes' coordinates. */
  width: number;
  height: number;
  strokes: readonly MaskStroke[];
  onStroke: (stroke: MaskStroke) => void;
  /** The brush's diameter on screen, in CSS pixels. */
  brushSize: number;
  mode: MaskStroke["mode"];
  disabled?: boolean;
}

export function MaskCanvas({
  width,
  height,
  strokes,
  onStroke,
  brushSize,
  mode,
  disabled = false,
}: MaskCanvasProps) {
  const { t } = useTranslation("picture-edit");
  const canvas = useRef<HTMLCanvasElement>(null);
  const live = useRef<MaskStroke | null>(null);
  const [cursor, setCursor] = useState<MaskPoint | null>(null);
  const [focused, setFocused] = useState(false);
  const hintId = useId();

  // The committed strokes, drawn again whenever they change (undo, clear, a new stroke).
  useEffect(() => {
    const context = canvas.current?.getContext("2d");
    if (!context) return;
    context.clearRect(0, 0, width, height);
    for (const stroke of strokes) drawStroke(context, stroke);
  }, [strokes, width, height]);

  /** Picture pixels per CSS pixel, as the canvas is shown now. */
  const scale = () => {
    const rect = canvas.current?.getBoundingClientRect();
    return rect && rect.width > 0 ? width / rect.width : 1;
  };
  const radius = () => Math.max(0.5, (brushSize / 2) * scale());
  const toPicture = (event: PointerEvent<HTMLCanvasElement>): MaskPoint => {
    const rect = event.currentTarget.getBoundingClientRect();
    const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
    return {
      x: clamp(((event.clientX - rect.left) * width) / (rect.width || 1), width),
      y: clamp(((event.clientY - rect.top) * height) / (rect.height || 1), height),
    };
  };
  const drawLive = (points: MaskPoint[]) => {
    const context = canvas.current?.getContext("2d");
    if (context && live.current) drawStroke(context, { ...live.current, points });
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (disabled || !event.isPrimary || (event.pointerType === "mouse" && event.button !== 0)) return;
    event.preventDefault();
    try {
      // The stroke follows the pointer outside the canvas until it is lifted.
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      // A pointer the browser no longer tracks (already lifted): the stroke is drawn without capture.
    }
    const point = toPicture(event);
    live.current = { mode, radius: radius(), points: [point] };
    drawLive([point]);
    setCursor(point);
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!event.isPrimary) return;
    const point = toPicture(event);
    setCursor(point);
    const stroke = live.current;
    if (!stroke) return;
    const last = stroke.points[stroke.points.length - 1]!;
    if (Math.hypot(point.x - last.x, point.y - last.y) < 0.5) return;
    stroke.points.push(point);
    drawLive([last, point]);
  };
  const finish = () => {
    const stroke = live.current;
    live.current = null;
    if (stroke) onStroke(stroke);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const here = cursor ?? { x: width / 2, y: height / 2 };
    const step = Math.max(radius(), Math.min(width, height) / 100);
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      const next = {
        x: Math.min(Math.max(here.x + move[0], 0), width),
        y: Math.min(Math.max(here.y + move[1], 0), height),
      };
      setCursor(next);
      if (event.shiftKey) onStroke({ mode, radius: radius(), points: [here, next] });
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      setCursor(here);
      onStroke({ mode, radius: radius(), points: [here] });
    }
  };

  const shown = cursor ?? (focused ? { x: width / 2, y: height / 2 } : null);
  return (
    // The brush is keyboard-operable (onKeyDown); the application role tells screen readers to pass keys through.
    <div
      role="application"
      aria-label={t("mask.label")}
      aria-describedby={hintId}
      aria-disabled={disabled || undefined}
      tabIndex={disabled ? -1 : 0}
      onKeyDown={onKeyDown}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      className="absolute inset-0 rounded-xl outline-none focus-visible:ring-4 focus-visible:ring-accent-500/60"
      data-testid="mask-brush"
    >
      <span id={hintId} className="sr-only">
        {t("mask.keyboardHint")}
      </span>
      <canvas
        ref={canvas}
        width={width}
        height={height}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={finish}
        onPointerCancel={finish}
        onPointerLeave={(event) => {
          if (!live.current && event.pointerType === "mouse") setCursor(null);
        }}
        className={`size-full touch-none rounded-xl opacity-50 ${disabled ? "" : "cursor-crosshair"}`}
      />
      {shown ? (
        <span
          aria-hidden="true"
          className="pointer-events-none absolute rounded-full border-2 border-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
          style={{
            left: `${(shown.x / width) * 100}%`,
            top: `${(shown.y / height) * 100}%`,
            width: brushSize,
            height: brushSize,
            transform: "translate(-50%, -50%)",
          }}
        />
      ) : null}
    </div>
  );
}
