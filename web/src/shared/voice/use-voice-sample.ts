// Plays a voice's sample: one at a time (another sample stops the first), and a second click on the playing
// voice stops it. The sample is fetched with the session and played from a blob: URL, freed when it ends.
import { useEffect, useRef, useState } from "react";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";
import { errorMessage } from "../../lib/api-errors";
import { fetchVoiceSample } from "./api/voices";

export interface VoiceSample {
  /** The voice whose sample is loading or playing; null when quiet. */
  playing: string | null;
  loading: boolean;
  error: string | null;
  /** Plays the voice's sample, or stops it when it is the one playing. */
  toggle: (voiceId: string, sampleUrl: string) => void;
}

interface Playing {
  voiceId: string;
  abort: AbortController;
  audio: HTMLAudioElement | null;
  objectUrl: string | null;
}

/** Stops the sample in `slot` (its download, its audio) and frees its blob: URL. */
function quiet(slot: { current: Playing | null }) {
  const now = slot.current;
  if (!now) return;
  slot.current = null;
  now.abort.abort();
  now.audio?.pause();
  if (now.objectUrl) URL.revokeObjectURL(now.objectUrl);
}

export function useVoiceSample(): VoiceSample {
  const [playing, setPlaying] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<Playing | null>(null);

  const stop = () => quiet(current);

  useEffect(() => () => quiet(current), []);

  const toggle = (voiceId: string, sampleUrl: string) => {
    const wasPlaying = current.current?.voiceId === voiceId;
    stop();
    setError(null);
    if (wasPlaying) {
      setPlaying(null);
      setLoading(false);
      return;
    }
    const mine: Playing = { voiceId, abort: new AbortController(), audio: null, objectUrl: null };
    current.current = mine;
    setPlaying(voiceId);
    setLoading(true);
    const done = () => {
      if (current.current !== mine) return;
      stop();
      setPlaying(null);
      setLoading(false);
    };
    fetchVoiceSample(sampleUrl, mine.abort.signal)
      .then(async (blob) => {
        if (current.current !== mine) return;
        mine.objectUrl = URL.createObjectURL(blob);
        mine.audio = new Audio(mine.objectUrl);
        mine.audio.addEventListener("ended", done);
        setLoading(false);
        await mine.audio.play();
      })
      .catch((failure: unknown) => {
        if (current.current !== mine) return;
        done();
        setError(
          i18n.t("voice:voiceSample.couldNotPlay", { error: translateServerMessage(errorMessage(failure)) }),
        );
      });
  };

  return { playing, loading, error, toggle };
}
