// The Studio (view `studio`): image batches from a prompt and input images, and a
// prompt advisor. Composes the conversation, the composer, the gallery picker and the Lightbox, and turns
// every refusal into the app's error banner or the Quota Exceeded dialog.
import type { GalleryItem } from "@storyverse/contract/media";
import { MessageCircleQuestion, WandSparkles } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/button";
import { Lightbox, type LightboxItem } from "../../../components/lightbox";
import { formatBalance, visibleCostLabel } from "../../../lib/credits";
import { useBanner } from "../../../shared/banner-provider";
import { useCreditBalance } from "../../../shared/credits/credit-balance";
import { useCreditShortfall } from "../../../shared/credits/credit-shortfall";
import { useQuotaPrompt } from "../../../shared/credits/quota-prompt-provider";
import { useEditKinds } from "../../../shared/picture-edit/edit-api";
import { type EditTarget, PictureEditDialog } from "../../../shared/picture-edit/picture-edit-dialog";
import { shapeOf, takeStudioDraft } from "../../../shared/studio-draft";
import { parseSeed, studioCost } from "../studio-rules";
import { clipboardFiles, useInputImages } from "../use-input-images";
import { useStudioConversation } from "../use-studio-conversation";
import { useStudioPreferences } from "../use-studio-preferences";
import { GalleryPickerDialog } from "./gallery-picker-dialog";
import { StudioComposer } from "./studio-composer";
import { resultsOf, StudioMessageList } from "./studio-message-list";

/** The example prompts the empty Studio offers (their words are in the `studio` namespace, under `ideas`). */
const IMAGE_IDEAS = ["lighthouse", "fox", "neon"] as const;
const ADVISOR_IDEAS = ["consistent", "forest"] as const;

export function StudioPage() {
  const { t } = useTranslation("studio");
  const { showError } = useBanner();
  const { showQuotaExceeded } = useQuotaPrompt();
  const { unlimited, remaining } = useCreditBalance();
  const { mode, setMode, batchSize, setBatchSize, shape, setShape } = useStudioPreferences();
  const conversation = useStudioConversation({ onError: showError, onQuota: showQuotaExceeded });
  const { inputs, addFiles, addFromGallery, toggleResult, remove, clear, restore, setRole } =
    useInputImages(showError);
  const [prompt, setPrompt] = useState("");
  // The seed field as typed: kept after a send, so the next prompt repeats it ("same seed").
  const [seedText, setSeedText] = useState("");
  const seed = parseSeed(seedText);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [lightboxIndex, setLightboxIndex] = useState<number | null>(null);
  // A result opened in the picture editor (offered only when the image service can edit).
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const canEdit = useEditKinds().length > 0;
  const end = useRef<HTMLDivElement>(null);
  const composer = useRef<HTMLDivElement>(null);
  const [focusSignal, setFocusSignal] = useState(0);

  const { messages, sending } = conversation;
  const cost = visibleCostLabel(studioCost(mode, batchSize), unlimited);
  const shortfall = useCreditShortfall(studioCost(mode, batchSize));

  // Clipboard images anywhere on the Studio become inputs (image mode); a text paste is left alone.
  const modeRef = useRef(mode);
  modeRef.current = mode;
  const pickerOpenRef = useRef(pickerOpen);
  pickerOpenRef.current = pickerOpen;
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      if (modeRef.current !== "image" || pickerOpenRef.current) return;
      const files = clipboardFiles(event.clipboardData);
      if (!files.some((file) => file.type.startsWith("image/"))) return;
      event.preventDefault();
      void addFiles(files, "paste");
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [addFiles]);

  // Every new message (and every answer arriving) brings the end of the conversation into view, above the
  // floating composer rather than under it: the end keeps a scroll margin of the composer's height.
  const last = messages.at(-1);
  const lastKey = last ? `${last.id}-${last.isLoading ? "loading" : "done"}` : "";
  useEffect(() => {
    if (!lastKey || !end.current) return;
    end.current.style.scrollMarginBottom = `${(composer.current?.offsetHeight ?? 0) + 16}px`;
    end.current.scrollIntoView?.({ block: "end" });
  }, [lastKey]);

  const takePrompt = useCallback(
    (text: string) => {
      setMode("image");
      setPrompt(text);
      setFocusSignal((n) => n + 1);
      // Image mode's composer is taller: keep the answer's end above it once it has grown.
      requestAnimationFrame(() => {
        if (!end.current) return;
        end.current.style.scrollMarginBottom = `${(composer.current?.offsetHeight ?? 0) + 16}px`;
        end.current.scrollIntoView?.({ block: "end" });
      });
    },
    [setMode],
  );

  /** "Use this seed": the result's seed, its shape and its prompt, ready for a changed prompt. */
  const takeSeed = useCallback(
    (item: GalleryItem) => {
      if (item.seed == null) return;
      setSeedText(String(item.seed));
      const itemShape = shapeOf(item.width, item.height);
      if (itemShape) setShape(itemShape);
      takePrompt(item.description);
    },
    [setShape, takePrompt],
  );

  // A picture's "Use this seed" elsewhere (the Gallery's details) left its seed, shape and prompt for us.
  useEffect(() => {
    const draft = takeStudioDraft();
    if (!draft) return;
    setSeedText(String(draft.seed));
    if (draft.shape) setShape(draft.shape);
    takePrompt(draft.prompt);
  }, [setShape, takePrompt]);

  const submit = useCallback(async () => {
    const text = prompt.trim();
    if (!text) return;
    if (mode === "image" && seed === "invalid") return;
    const sentInputs = mode === "image" ? inputs : [];
    setPrompt("");
    if (mode === "image") clear();
    const outcome = await conversation.send({
      mode,
      prompt: text,
      batchSize,
      inputs: sentInputs,
      ...(mode === "image" ? { shape, seed: seed === "invalid" ? null : seed } : {}),
    });
    if (outcome === "quota") {
      // Nothing was made: give the prompt and its inputs back.
      setPrompt((current) => current || text);
      if (mode === "image") restore(sentInputs);
    }
  }, [prompt, mode, inputs, batchSize, shape, seed, clear, restore, conversation]);

  const selectedIds = useMemo(
    () => new Set(inputs.flatMap((input) => (input.origin === "result" ? [input.id] : []))),
    [inputs],
  );

  const results = useMemo(
    () => messages.filter((message) => !message.isAdvisor && message.role === "assistant").flatMap(resultsOf),
    [messages],
  );
  const lightboxItems = useMemo<LightboxItem[]>(
    () =>
      results.map((result) => ({
        url: result.url,
        type: "image",
        description: result.description || undefined,
        downloadName: result.item
          ? `storyverse-${result.item.id.slice(0, 8)}.${result.item.file_extension || "png"}`
          : undefined,
      })),
    [results],
  );
  const openResult = useCallback(
    (url: string) => {
      const index = results.findIndex((result) => result.url === url);
      if (index >= 0) setLightboxIndex(index);
    },
    [results],
  );

  const toggle = useCallback(
    (item: GalleryItem) => {
      // Reusing a result is an image-mode action: switch there so the selection is seen.
      if (mode !== "image") setMode("image");
      toggleResult(item);
    },
    [mode, setMode, toggleResult],
  );

  const empty = messages.length === 0;

  return (
    <div className="flex min-h-[calc(100dvh-65px)] flex-col px-3 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto flex w-full max-w-5xl flex-1 flex-col">
        {empty ? (
          <section
            aria-labelledby="studio-title"
            className="flex flex-1 flex-col items-center justify-center py-12 text-center"
          >
            <span className="bg-primary-gradient grid size-16 place-items-center rounded-3xl text-white shadow-lifted">
              <WandSparkles aria-hidden="true" className="size-8" />
            </span>
            <h1 id="studio-title" className="mt-5 text-3xl font-semibold tracking-tight sm:text-4xl">
              {t("page.title")}
            </h1>
            <p className="mt-2 max-w-md text-ink-muted">{t("page.subtitle")}</p>
            {conversation.isLoadingHistory ? (
              <p role="status" className="mt-6 inline-flex items-center gap-2 text-sm text-ink-muted">
                <Spinner />
                {t("page.loading")}
              </p>
            ) : (
              <div className="mt-8 w-full max-w-2xl">
                <p className="mb-3 text-xs font-semibold tracking-wide text-ink-muted uppercase">
                  {mode === "image" ? t("page.tryIdea") : t("page.askAdvisor")}
                </p>
                <ul className="flex flex-wrap justify-center gap-2">
                  {(mode === "image" ? IMAGE_IDEAS : ADVISOR_IDEAS).map((key) => {
                    const idea = t(`ideas.${key}`);
                    return (
                      <li key={key}>
                        <button
                          type="button"
                          onClick={() => setPrompt(idea)}
                          className="inline-flex items-center gap-2 rounded-full border border-line bg-surface px-4 py-2 text-start text-sm text-ink shadow-soft transition duration-200 hover:border-accent-400/60 hover:bg-surface-2"
                        >
                          {mode === "image" ? (
                            <WandSparkles aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
                          ) : (
                            <MessageCircleQuestion
                              aria-hidden="true"
                              className="size-4 shrink-0 text-accent-ink"
                            />
                          )}
                          {idea}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
          </section>
        ) : (
          <section aria-labelledby="studio-title" className="flex-1 pt-6 pb-6 sm:pt-8">
            <div className="mb-6 flex items-center gap-3">
              <span className="bg-primary-gradient grid size-10 place-items-center rounded-2xl text-white shadow-soft">
                <WandSparkles aria-hidden="true" className="size-5" />
              </span>
              <div>
                <h1 id="studio-title" className="text-xl font-semibold tracking-tight">
                  {t("page.title")}
                </h1>
                <p className="text-sm text-ink-muted">{t("page.subtitle")}</p>
              </div>
            </div>
            <StudioMessageList
              messages={messages}
              selectedIds={selectedIds}
              onToggleResult={toggle}
              onOpenResult={openResult}
              onRetry={(id) => void conversation.retry(id)}
              onDismiss={conversation.dismissFailure}
              canRetry={conversation.canRetry}
              retrying={sending}
              onUsePrompt={takePrompt}
              onUseSeed={takeSeed}
              onEdit={canEdit ? (item) => setEditing({ id: item.id }) : undefined}
            />
            <div ref={end} />
          </section>
        )}

        <div
          ref={composer}
          className="sticky bottom-0 z-10 -mx-3 bg-gradient-to-t from-canvas via-canvas to-canvas/0 px-3 pt-4 pb-3 sm:-mx-2 sm:px-2 sm:pb-5"
        >
          <StudioComposer
            mode={mode}
            onModeChange={setMode}
            batchSize={batchSize}
            onBatchSizeChange={setBatchSize}
            shape={shape}
            onShapeChange={setShape}
            seed={seedText}
            onSeedChange={setSeedText}
            seedInvalid={seed === "invalid"}
            inputs={inputs}
            onRemoveInput={remove}
            onRoleChange={setRole}
            onUpload={(files) => void addFiles(files, "upload")}
            onOpenPicker={() => setPickerOpen(true)}
            prompt={prompt}
            onPromptChange={setPrompt}
            onSubmit={() => void submit()}
            sending={sending}
            cost={cost}
            balance={
              unlimited ? null : t("page.balance", { count: remaining, amount: formatBalance(remaining) })
            }
            shortfall={shortfall}
            focusSignal={focusSignal}
          />
        </div>
      </div>

      <GalleryPickerDialog
        open={pickerOpen}
        onOpenChange={setPickerOpen}
        inputs={inputs}
        onAdd={addFromGallery}
      />
      <PictureEditDialog target={editing} onClose={() => setEditing(null)} />
      {lightboxIndex !== null && lightboxItems.length > 0 ? (
        <Lightbox
          items={lightboxItems}
          index={Math.min(lightboxIndex, lightboxItems.length - 1)}
          onIndexChange={setLightboxIndex}
          onClose={() => setLightboxIndex(null)}
        />
      ) : null}
    </div>
  );
}
