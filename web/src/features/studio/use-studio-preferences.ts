// The Studio's persisted choices: the mode (advisor chat or image)
// under `studioMode`, and the batch size (1 to 4) under the `batchSize` key.
import { MAX_BATCH_SIZE, MIN_BATCH_SIZE } from "@storyverse/contract/chat";
import { useCallback, useState } from "react";
import { readStorage, type StudioMode, writeStorage } from "../../lib/storage";

export const DEFAULT_STUDIO_MODE: StudioMode = "image";
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

  const setBatchSize = useCallback((next: number) => {
    const size = Math.min(MAX_BATCH_SIZE, Math.max(MIN_BATCH_SIZE, Math.round(next)));
    setBatchSizeState(size);
    writeStorage("batchSize", size);
  }, []);

  return { mode, setMode, batchSize, setBatchSize };
}
