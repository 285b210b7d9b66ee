// A yes/no question before something that cannot be taken back (deleting a story). The confirm button
// shows its busy label while the action runs; a failure is shown in the dialog, which stays open.
import { LoaderCircle, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClasses } from "./button-classes";
import { FormAlert } from "./form-alert";
import { Modal, ModalActions, ModalClose } from "./modal";

const DANGER_BUTTON =
  "inline-flex h-10 shrink-0 items-center justify-center gap-2 rounded-xl bg-red-600 px-4 text-sm font-semibold " +
  "whitespace-nowrap text-white shadow-[0_8px_24px_-10px_rgb(220_38_38/0.7)] transition duration-200 " +
  "hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-60";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  tone?: "danger" | "default";
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busyLabel,
  busy,
  error,
  onConfirm,
  tone = "danger",
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      busy={busy}
      size="sm"
      icon={<TriangleAlert className={`size-5 ${tone === "danger" ? "text-danger" : ""}`} />}
    >
      <FormAlert message={error} />
      <ModalActions>
        <ModalClose disabled={busy} className={buttonClasses("secondary", "sm")}>
          Cancel
        </ModalClose>
        <button
          type="button"
          onClick={onConfirm}
          disabled={busy}
          className={tone === "danger" ? DANGER_BUTTON : buttonClasses("primary", "sm")}
        >
          {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          {busy ? busyLabel : confirmLabel}
        </button>
      </ModalActions>
    </Modal>
  );
}
