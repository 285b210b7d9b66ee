// "Read aloud" under a narrator message: one button that reads "Read aloud", then "Preparing narration" while
// the server makes the audio, "Pause narration" while it plays and "Resume narration" when paused; a speed
// choice beside it while there is something to hear. With paid speech the first reading's price is in the
// button's tooltip. A failed narration says why under the button, which reads "Read aloud" again. Nothing is
// shown when the server has narration switched off.
import { SPEECH_FAILED_MESSAGE, SPEECH_RATES, speechCost } from "@storyverse/contract/voice";
import { Pause, Play, Volume2 } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { visibleCostLabel } from "../../../lib/credits";
import { useCreditBalance } from "../../credits/credit-balance";
import { useVoices } from "../api/voices";
import { useMessageNarration } from "../use-message-narration";

/** "1.25×" */
export const rateLabel = (rate: number) => i18n.t("voice:narration.rate", { rate });

/** Why a narration failed, in the interface's language (the server's words through its catalogue). */
const failureText = (error: string) =>
  error === SPEECH_FAILED_MESSAGE ? i18n.t("voice:narration.failed") : translateServerMessage(error);

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
  const { t } = useTranslation("voice");
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
      <Button
        variant="ghost"
        size="xs"
        loading
        aria-label={t("narration.preparingLabel")}
        title={t("narration.preparingLabel")}
      >
        {t("narration.preparing")}
      </Button>
    ) : status === "playing" ? (
      <Button
        variant="ghost"
        size="xs"
        aria-label={t("narration.pauseLabel")}
        title={t("narration.pauseLabel")}
        icon={<Pause aria-hidden="true" className="size-3.5" />}
        onClick={narration.pause}
      >
        {t("narration.pause")}
      </Button>
    ) : status === "paused" ? (
      <Button
        variant="ghost"
        size="xs"
        aria-label={t("narration.resumeLabel")}
        title={t("narration.resumeLabel")}
        icon={<Play aria-hidden="true" className="size-3.5" />}
        onClick={narration.resume}
      >
        {t("narration.resume")}
      </Button>
    ) : (
      <Button
        variant="ghost"
        size="xs"
        aria-label={t("narration.readAloud")}
        title={price ? t("narration.readAloudPrice", { price }) : t("narration.readThisAloud")}
        icon={<Volume2 aria-hidden="true" className="size-3.5" />}
        onClick={() => {
          setNarrated(true);
          narration.start();
        }}
      >
        {t("narration.readAloud")}
      </Button>
    );

  return (
    <>
      {button}
      {listening ? (
        <>
          <label htmlFor={rateId} className="sr-only">
            {t("narration.speed")}
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
        <p role="alert" data-server-text className="basis-full text-xs text-danger">
          {failureText(narration.error)}
        </p>
      ) : null}
    </>
  );
}
