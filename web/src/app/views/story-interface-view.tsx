// The open story, composed: the stories feature's screen with the sharing feature's "Share & export" dialog,
// which carries the stories feature's backup section (features never import each other; the app joins them).
import type { Story } from "@storyverse/contract/stories";
import { ShareExportDialog } from "../../features/sharing/components/share-export-dialog";
import { BackupSection } from "../../features/stories/components/backup-section";
import { StoryInterface } from "../../features/stories/components/story-interface";

function StoryShareDialog({ story, onClose }: { story: Story | null; onClose: () => void }) {
  return <ShareExportDialog story={story} onClose={onClose} backupSection={BackupSection} />;
}

export function StoryInterfaceView() {
  return <StoryInterface ShareDialog={StoryShareDialog} />;
}
