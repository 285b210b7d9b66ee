// The Quota Exceeded dialog: any feature whose request is refused for want of credits
// calls useQuotaPrompt().showQuotaExceeded(). 'View Plans' opens the Credits page, 'Later' closes it.
// Mounted once inside the signed-in shell. Worded for the case: with nothing left it says the spec's
// words; with some credits left but fewer than the request costs, it says so, with both numbers.
//
// The "out-of-credits prompt" of the other flows (a chat turn, a Studio batch refused with 402 or a
// message containing 'Insufficient credits', see ./out-of-credits.ts) is this same dialog: one prompt,
// one set of words and one way to the Credits page wherever credits run out.
import * as Dialog from "@radix-ui/react-dialog";
import { Sparkles } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/button";
import { buttonClasses } from "../../components/button-classes";
import { i18n } from "../../i18n/i18n";
import { costLabel } from "../../lib/credits";
import { useView } from "../view-provider";
import type { Shortfall } from "./out-of-credits";
import { rememberCreditsReturn } from "./story-return";

/** "This costs 6 credits and you have 4 credits. ..." for a request bigger than what is left. */
export function notEnoughCreditsText({ cost, remaining }: Shortfall): string {
  return i18n.t("credits:quotaDialog.notEnoughText", { cost: costLabel(cost), count: remaining });
}

/** Some credits left, just not enough: the words for that case rather than "you've reached your limit". */
function isPartial(shortfall: Shortfall | null): shortfall is Shortfall {
  return shortfall !== null && shortfall.remaining > 0 && shortfall.cost > shortfall.remaining;
}

/** The credit management view (the Credits page). */
export const CREDITS_VIEW = "subscription";

interface QuotaPromptContextValue {
  /** With the refusal's cost and balance (shortfallOf(error)) the dialog can say how short the user is. */
  showQuotaExceeded: (shortfall?: Shortfall | null) => void;
}

const QuotaPromptContext = createContext<QuotaPromptContextValue | null>(null);

export function QuotaPromptProvider({ children }: { children: ReactNode }) {
  const { navigate, storyId } = useView();
  const [open, setOpen] = useState(false);
  const [shortfall, setShortfall] = useState<Shortfall | null>(null);
  const showQuotaExceeded = useCallback((next?: Shortfall | null) => {
    setShortfall(next ?? null);
    setOpen(true);
  }, []);
  const value = useMemo(() => ({ showQuotaExceeded }), [showQuotaExceeded]);

  const viewPlans = () => {
    setOpen(false);
    // From a story, a paid return comes back to it (story-return.ts).
    if (storyId) rememberCreditsReturn(storyId);
    navigate(CREDITS_VIEW);
  };

  return (
    <QuotaPromptContext value={value}>
      {children}
      <QuotaExceededDialog open={open} onOpenChange={setOpen} onViewPlans={viewPlans} shortfall={shortfall} />
    </QuotaPromptContext>
  );
}

interface QuotaExceededDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onViewPlans: () => void;
  shortfall?: Shortfall | null;
}

export function QuotaExceededDialog({
  open,
  onOpenChange,
  onViewPlans,
  shortfall,
}: QuotaExceededDialogProps) {
  const { t } = useTranslation("credits");
  const partial = isPartial(shortfall ?? null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/55 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-[60] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-3xl border border-line bg-surface p-6 text-ink shadow-lifted outline-none motion-safe:animate-fade-in sm:p-8">
          <div
            aria-hidden="true"
            className="bg-primary-gradient mx-auto mb-5 grid size-14 place-items-center rounded-2xl text-white shadow-soft"
          >
            <Sparkles className="size-7" />
          </div>
          <Dialog.Title className="text-center text-xl font-bold tracking-tight">
            {partial ? t("quotaDialog.notEnoughTitle") : t("quotaDialog.title")}
          </Dialog.Title>
          <Dialog.Description className="mt-3 text-center text-sm leading-6 text-ink-muted">
            {partial && shortfall ? notEnoughCreditsText(shortfall) : t("quotaDialog.text")}
          </Dialog.Description>
          <div className="mt-7 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
            <Dialog.Close className={`${buttonClasses("secondary", "sm")} sm:min-w-28`}>
              {t("quotaDialog.later")}
            </Dialog.Close>
            <Button onClick={onViewPlans} size="sm" className="sm:min-w-36">
              {t("quotaDialog.viewPlans")}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function useQuotaPrompt(): QuotaPromptContextValue {
  const value = useContext(QuotaPromptContext);
  if (!value) throw new Error("useQuotaPrompt must be used inside <QuotaPromptProvider>");
  return value;
}
