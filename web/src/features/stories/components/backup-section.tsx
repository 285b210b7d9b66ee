// "Backup" in an open story's Share & export dialog: the whole story as one archive (see
// docs/story-archive.md), which "Restore a backup" on the Stories list of any Storyverse turns back into a
// story, media included. It says exactly what is inside (its branches, checkpoints, pictures and clips, from
// the server). A failure goes to the dialog's own alert, as its other sections' do.
import { HardDriveDownload } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/button";
import { errorMessage } from "../../../lib/api-errors";
import { describeBackup, downloadStoryBackup, useBackupSummary } from "../api/story-backup";

export function BackupSection({
  storyId,
  onError,
}: {
  storyId: string;
  onError: (message: string | null) => void;
}) {
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
      onError(`Failed to download the backup: ${errorMessage(error)}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} className="text-sm font-semibold">
        Backup
      </h3>
      <p className="text-sm text-ink-muted">
        {summary
          ? `The whole story in one file: ${describeBackup(summary)}.`
          : "The whole story in one file: every branch, checkpoint, picture and clip."}{" "}
        Every message with its versions, Memory, Story Cards with their portraits, settings and the story’s
        film (once made) are in it. Bring it back on any Storyverse with “Restore a backup” in Your Stories.
      </p>
      <div>
        <Button
          variant="secondary"
          size="sm"
          loading={saving}
          loadingText="Preparing the backup…"
          icon={<HardDriveDownload aria-hidden="true" className="size-4" />}
          onClick={() => void save()}
        >
          Download backup
        </Button>
      </div>
    </section>
  );
}
