// The chat's remembered choices: the mode (chat, image or video) under chatMode, the batch size under
// batchSize, whether the scene canvas is folded (sceneCanvas: a strip on a phone, a rail on a desktop) and its
// width on a desktop (sceneWidth), and whether a picture on the open canvas shows in the story too
// (scenePictures), all in local storage through the typed helper.
import { type ChatMode, MAX_BATCH_SIZE, MIN_BATCH_SIZE } from "@storyverse/contract/chat";
import { useCallback, useState } from "react";
import {
  readStorage,
  SCENE_WIDTH_DEFAULT,
  SCENE_WIDTH_MAX,
  SCENE_WIDTH_MIN,
  writeStorage,
} from "../../lib/storage";

/** A story is pictured by default: every turn paints its scene. */
export const DEFAULT_CHAT_MODE: ChatMode = "image";
export const DEFAULT_BATCH_SIZE = 1;

export function useChatMode(): [ChatMode, (mode: ChatMode) => void] {
  const [mode, setMode] = useState<ChatMode>(() => readStorage("chatMode") ?? DEFAULT_CHAT_MODE);
  const choose = useCallback((next: ChatMode) => {
    setMode(next);
    writeStorage("chatMode", next);
  }, []);
  return [mode, choose];
}

export function useBatchSize(): [number, (size: number) => void] {
  const [size, setSize] = useState<number>(() => readStorage("batchSize") ?? DEFAULT_BATCH_SIZE);
  const choose = useCallback((next: number) => {
    const clamped = Math.min(MAX_BATCH_SIZE, Math.max(MIN_BATCH_SIZE, Math.round(next)));
    setSize(clamped);
    writeStorage("batchSize", clamped);
  }, []);
  return [size, choose];
}

/** The scene can fold (a strip on a phone, a rail on a desktop) so the story and the input get the screen; remembered. */
export function useSceneCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsed] = useState(() => readStorage("sceneCanvas") === "collapsed");
  const choose = useCallback((next: boolean) => {
    setCollapsed(next);
    writeStorage("sceneCanvas", next ? "collapsed" : "expanded");
  }, []);
  return [collapsed, choose];
}

/**
 * A picture is shown once: on the open canvas, or in the story when the canvas is folded (decision 0144).
 * Those who want it in both places say so; remembered like the fold.
 */
export function useScenePicturesBoth(): [boolean, (both: boolean) => void] {
  const [both, setBoth] = useState(() => readStorage("scenePictures") === "both");
  const choose = useCallback((next: boolean) => {
    setBoth(next);
    writeStorage("scenePictures", next ? "both" : "once");
  }, []);
  return [both, choose];
}

const clampSceneWidth = (width: number) =>
  Math.round(Math.min(SCENE_WIDTH_MAX, Math.max(SCENE_WIDTH_MIN, width)));

/**
 * The desktop scene's width in percent of the story view, kept between its bounds. `preview` follows a drag
 * without writing storage; `choose` remembers the width.
 */
export function useSceneWidth(): {
  width: number;
  preview: (width: number) => void;
  choose: (width: number) => void;
} {
  const [width, setWidth] = useState<number>(() => readStorage("sceneWidth") ?? SCENE_WIDTH_DEFAULT);
  const preview = useCallback((next: number) => setWidth(clampSceneWidth(next)), []);
  const choose = useCallback((next: number) => {
    setWidth(clampSceneWidth(next));
    writeStorage("sceneWidth", clampSceneWidth(next));
  }, []);
  return { width, preview, choose };
}
