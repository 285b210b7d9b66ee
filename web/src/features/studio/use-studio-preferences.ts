// The Studio's persisted choices: the mode (advisor chat or image)
// under `studioMode`, the batch size (1 to 4) under the `batchSize` key, and the pictures' shape (one of the
// six of decision 0149, 4:3 until chosen) under `studioShape`.
import { MAX_BATCH_SIZE, MIN_BATCH_SIZE } from "@storyverse/contract/chat";
import type { AspectRatio } from "@storyverse/contract/generation-settings";
import { useCallback, useState } from "react";
import { readStorage, type StudioMode, writeStorage } from "../../lib/storage";

export const DEFAULT_STUDIO_MODE: StudioMode = "image";
const DEFAULT_SHAPE: AspectRatio = "4:3";
export const BATCH_SIZES = Array.from(
  { length: MAX_BATCH_SIZE - MIN_BATCH_SIZE + 1 },
  (_, index) => MIN_BATCH_SIZE + index,
);

export function useStudioPreferences() {
  const [mode, setModeState] = useState<StudioMode>(() => readStorage("studioMode") ?? DEFAULT_STUDIO_MODE);
  const [batchSize, setBatchSizeState] = useState<number>(() => readStorage("batchSize") ?? MIN_BATCH_SIZE);

  const setMode = useCallback((next: StudioMode) => {
    setModeState(next);
    writeStorage("studioMode", next);
  }, []);

  const [shape, setShapeState] = useState<AspectRatio>(() => readStorage("studioShape") ?? DEFAULT_SHAPE);
  const setShape = useCallback((next: AspectRatio) => {
    setShapeState(next);
    writeStorage("studioShape", next);
  }, []);

  const setBatchSize = useCallback((next: number) => {
    const size = Math.min(MAX_BATCH_SIZE, Math.max(MIN_BATCH_SIZE, Math.round(next)));
    setBatchSizeState(size);
    writeStorage("batchSize", size);
  }, []);

  return { mode, setMode, batchSize, setBatchSize, shape, setShape };
}
