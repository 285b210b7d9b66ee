// A yes/no question before something that cannot be taken back (deleting a story). The confirm button
// shows its busy label while the action runs; a failure is shown in the dialog, which stays open.
import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button";
import { buttonClasses } from "./button-classes";
import { FormAlert } from "./form-alert";
import { Modal, ModalActions, ModalClose } from "./modal";

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
  const { t } = useTranslation("common");
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
          {t("confirmDialog.cancel")}
        </ModalClose>
        <Button
          onClick={onConfirm}
          variant={tone === "danger" ? "danger" : "primary"}
          size="sm"
          loading={busy}
          loadingText={busyLabel}
        >
          {confirmLabel}
        </Button>
      </ModalActions>
    </Modal>
  );
}
