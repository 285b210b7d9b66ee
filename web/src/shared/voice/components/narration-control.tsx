// "Read aloud" under a narrator message: one button that reads "Read aloud", then "Preparing narration" while
// the server makes the audio, "Pause narration" while it plays and "Resume narration" when paused; a speed
// choice beside it while there is something to hear. With paid speech the first reading's price is in the
// button's tooltip. A failed narration says why under the button, which reads "Read aloud" again. Nothing is
// shown when the server has narration switched off.
import { SPEECH_RATES, speechCost } from "@storyverse/contract/voice";
import { Pause, Play, Volume2 } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/button";
import { visibleCostLabel } from "../../../lib/credits";
import { useCreditBalance } from "../../credits/credit-balance";
import { useVoices } from "../api/voices";
import { useMessageNarration } from "../use-message-narration";

export const READ_ALOUD_LABEL = "Read aloud";

/** "1.25×" */
export const rateLabel = (rate: number) => `${rate}×`;

export function NarrationControl({
  storyId,
  messageId,
  text,
}: {
  storyId: string;
  messageId: string;
  text: string;
}) {
  const voices = useVoices();
  if (!voices) return null;
  return (
    <NarrationButton storyId={storyId} messageId={messageId} text={text} unitPrice={voices.price_per_unit} />
  );
}

function NarrationButton({
  storyId,
  messageId,
  text,
  unitPrice,
}: {
  storyId: string;
  messageId: string;
  text: string;
  unitPrice: number;
}) {
  const narration = useMessageNarration(storyId, messageId);
  const { unlimited } = useCreditBalance();
  const rateId = useId();
  // Once narrated, hearing it again is free: the price is only shown before the first time.
  const [narrated, setNarrated] = useState(false);
  const { status } = narration;
  const price =
    unitPrice > 0 && !narrated ? visibleCostLabel(speechCost(unitPrice, text.length), unlimited) : null;
  const listening = status === "playing" || status === "paused";

  const button =
    status === "preparing" ? (
      <Button variant="ghost" size="xs" loading aria-label="Preparing narration" title="Preparing narration">
        Preparing…
      </Button>
    ) : status === "playing" ? (
      <Button
        variant="ghost"
        size="xs"
        aria-label="Pause narration"
        title="Pause narration"
        icon={<Pause aria-hidden="true" className="size-3.5" />}
        onClick={narration.pause}
      >
        Pause
      </Button>
    ) : status === "paused" ? (
      <Button
        variant="ghost"
        size="xs"
        aria-label="Resume narration"
        title="Resume narration"
        icon={<Play aria-hidden="true" className="size-3.5" />}
        onClick={narration.resume}
      >
        Resume
      </Button>
    ) : (
      <Button
        variant="ghost"
        size="xs"
        aria-label={READ_ALOUD_LABEL}
        title={price ? `Read aloud (${price})` : "Read this message aloud"}
        icon={<Volume2 aria-hidden="true" className="size-3.5" />}
        onClick={() => {
          setNarrated(true);
          narration.start();
        }}
      >
        {READ_ALOUD_LABEL}
      </Button>
    );

  return (
    <>
      {button}
      {listening ? (
        <>
          <label htmlFor={rateId} className="sr-only">
            Narration speed
          </label>
          <select
            id={rateId}
            value={narration.rate}
            onChange={(event) => narration.setRate(Number(event.target.value))}
            className="h-7 rounded-lg border border-line bg-surface px-1.5 text-xs font-semibold text-ink-muted tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-accent-500"
          >
            {SPEECH_RATES.map((rate) => (
              <option key={rate} value={rate}>
                {rateLabel(rate)}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {status === "failed" && narration.error ? (
        <p role="alert" className="basis-full text-xs text-danger">
          {narration.error}
        </p>
      ) : null}
    </>
  );
}
