// The chat's remembered choices: the mode (chat, image or video) under chatMode, the batch size under
// batchSize and, on a phone, whether the scene canvas is folded (sceneCanvas), all in local storage through
// the typed helper.
import { type ChatMode, MAX_BATCH_SIZE, MIN_BATCH_SIZE } from "@storyverse/contract/chat";
import { useCallback, useState } from "react";
import { readStorage, writeStorage } from "../../lib/storage";

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

/** On a phone the scene can fold to a strip so the story and the input get the screen; remembered. */
export function useSceneCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsed] = useState(() => readStorage("sceneCanvas") === "collapsed");
  const choose = useCallback((next: boolean) => {
    setCollapsed(next);
    writeStorage("sceneCanvas", next ? "collapsed" : "expanded");
  }, []);
  return [collapsed, choose];
}
