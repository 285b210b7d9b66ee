// "Backup" in an open story's Share & export dialog: the whole story as one archive (see
// docs/story-archive.md), which "Restore a backup" on the Stories list of any Storyverse turns back into a
// story, media included. It says exactly what is inside (its branches, checkpoints, pictures and clips, from
// the server). A failure goes to the dialog's own alert, as its other sections' do.
import { HardDriveDownload } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { describeBackup, downloadStoryBackup, useBackupSummary } from "../api/story-backup";

export function BackupSection({
  storyId,
  onError,
}: {
  storyId: string;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("story-tools");
  const [saving, setSaving] = useState(false);
  const headingId = useId();
  const summary = useBackupSummary(storyId).data;

  const save = async () => {
    if (saving) return;
    setSaving(true);
    onError(null);
    try {
      await downloadStoryBackup(storyId);
    } catch (error) {
      onError(t("backupSection.failed", { reason: translateServerMessage(errorMessage(error)) }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-sm font-semibold">
        {t("backupSection.heading")}
      </h3>
      <p className="text-sm text-ink-muted">
        {summary
          ? t("backupSection.summary", { contents: describeBackup(summary) })
          : t("backupSection.summaryUnknown")}{" "}
        {t("backupSection.inside")}
      </p>
      <div>
        <Button
          variant="secondary"
          size="sm"
          loading={saving}
          loadingText={t("backupSection.preparing")}
          icon={<HardDriveDownload aria-hidden="true" className="size-4" />}
          onClick={() => void save()}
        >
          {t("backupSection.download")}
        </Button>
      </div>
    </section>
  );
}
