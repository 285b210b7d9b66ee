// The Studio's persisted choices (spec section 2 "Studio", section 5): the mode (advisor chat or image)
// under `studioMode`, and the batch size (1 to 4) under the spec's `batchSize` key.
import { useCallback, useState } from "react";
import {
  BATCH_SIZE_MAX,
  BATCH_SIZE_MIN,
  readStorage,
  type StudioMode,
  writeStorage,
} from "../../lib/storage";

export const DEFAULT_STUDIO_MODE: StudioMode = "image";
export const BATCH_SIZES = Array.from(
  { length: BATCH_SIZE_MAX - BATCH_SIZE_MIN + 1 },
  (_, index) => BATCH_SIZE_MIN + index,
);

export function useStudioPreferences() {
  const [mode, setModeState] = useState<StudioMode>(() => readStorage("studioMode") ?? DEFAULT_STUDIO_MODE);
  const [batchSize, setBatchSizeState] = useState<number>(() => readStorage("batchSize") ?? BATCH_SIZE_MIN);

  const setMode = useCallback((next: StudioMode) => {
    setModeState(next);
    writeStorage("studioMode", next);
  }, []);

  const setBatchSize = useCallback((next: number) => {
    const size = Math.min(BATCH_SIZE_MAX, Math.max(BATCH_SIZE_MIN, Math.round(next)));
    setBatchSizeState(size);
    writeStorage("batchSize", size);
  }, []);

  return { mode, setMode, batchSize, setBatchSize };
}
