// A branch's newest scene, small (the branch list and tree), or a quiet branch mark when it has none or the
// picture would not load (a signed URL may have expired).
import { GitBranch } from "lucide-react";
import { useState } from "react";

export function BranchThumb({ url, className = "h-9 w-12" }: { url: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const shown = url && url !== failed ? url : null;
  return (
    <span
      aria-hidden="true"
      className={`grid shrink-0 place-items-center overflow-hidden rounded-lg border border-line bg-surface-2 text-ink-muted ${className}`}
    >
      {shown ? (
        <img
          src={shown}
          alt=""
          loading="lazy"
          onError={() => setFailed(shown)}
          className="size-full object-cover"
        />
      ) : (
        <GitBranch className="size-4 opacity-70" />
      )}
    </span>
  );
}
