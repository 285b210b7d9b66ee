// What a conversation's canvas shows: the newest media of its messages, forced when the conversation is first
// read and after a change that alters what the story shows (undo, an edit, a chosen version, a fresh read
// after a media address expired); otherwise it follows newer media only.
import type { ChatMessage } from "@storyverse/contract/chat";
import { useCallback, useEffect, useRef, useState } from "react";
import {
  applyCanvasMedia,
  type CanvasMedia,
  canvasMediaFor,
  newestMediaMessage,
  sameCanvasMedia,
} from "./canvas-media";

export function useConversationCanvas(
  messages: ChatMessage[] | undefined,
  initialCanvas: CanvasMedia | null,
  onCanvasChange: ((canvas: CanvasMedia | null) => void) | undefined,
) {
  const [canvas, setCanvas] = useState<CanvasMedia | null>(initialCanvas);
  const forceSync = useRef(true);
  useEffect(() => {
    if (!messages) return;
    const newest = newestMediaMessage(messages);
    const next = newest ? canvasMediaFor(newest) : null;
    const force = forceSync.current;
    forceSync.current = false;
    setCanvas((current) => {
      const updated = applyCanvasMedia(current, next, { force });
      return sameCanvasMedia(current, updated) ? current : updated;
    });
  }, [messages]);

  const onChange = useRef(onCanvasChange);
  onChange.current = onCanvasChange;
  const canvasSeen = useRef(canvas);
  useEffect(() => {
    if (canvasSeen.current === canvas) return;
    canvasSeen.current = canvas;
    onChange.current?.(canvas);
  }, [canvas]);

  /** The next read of the conversation sets the canvas, whatever its media's times. */
  const followNextRead = useCallback(() => {
    forceSync.current = true;
  }, []);

  return { canvas, followNextRead };
}
