// The narrator's text as Markdown, safely. Raw HTML is never rendered: it shows
// as the literal text it is. Links and images keep their address only when it is relative or uses http,
// https, irc, ircs, mailto or xmpp (react-markdown's default URL filter is exactly that list); any other
// address is emptied. Links open in a new tab without the opener or a referrer. Pictures from other
// sites are shown as links: the app's Content-Security-Policy only loads images from its own origin.
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";

function isSameOrigin(src: string): boolean {
  try {
    return new URL(src, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

const components: Components = {
  a: ({ node: _node, href, children, ...props }) =>
    href ? (
      <a {...props} href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ node: _node, src, alt }) => {
    if (typeof src !== "string" || src === "") return alt ? <span>{alt}</span> : null;
    if (!isSameOrigin(src)) {
      return (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow">
          {alt || src}
        </a>
      );
    }
    return <img src={src} alt={alt ?? ""} loading="lazy" className="my-2 max-w-full rounded-xl" />;
  },
};

/** Typography for the rendered elements, kept here so the component carries its own look. */
const PROSE = [
  "break-words text-[0.9375rem] leading-7",
  "[&>*:first-child]:mt-0 [&>*:last-child]:mb-0",
  "[&_p]:my-3 [&_ul]:my-3 [&_ol]:my-3 [&_ul]:list-disc [&_ol]:list-decimal [&_ul]:ps-5 [&_ol]:ps-5 [&_li]:my-1",
  "[&_h1]:mt-4 [&_h1]:mb-2 [&_h1]:text-lg [&_h1]:font-bold [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-base [&_h2]:font-bold",
  "[&_h3]:mt-3 [&_h3]:mb-1 [&_h3]:font-semibold [&_strong]:font-semibold [&_em]:italic",
  "[&_a]:font-medium [&_a]:text-accent-ink [&_a]:underline [&_a]:underline-offset-2",
  "[&_blockquote]:my-3 [&_blockquote]:border-s-2 [&_blockquote]:border-accent-400/60 [&_blockquote]:ps-4 [&_blockquote]:italic [&_blockquote]:text-ink-muted",
  "[&_code]:rounded-md [&_code]:bg-canvas/70 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.85em]",
  "[&_pre]:my-3 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-canvas/70 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_hr]:my-4 [&_hr]:border-line",
].join(" ");

interface MarkdownProps extends Pick<ComponentProps<"div">, "className"> {
  children: string;
}

export function Markdown({ children, className = "" }: MarkdownProps) {
  return (
    <div className={`${PROSE} ${className}`}>
      <ReactMarkdown components={components}>{children}</ReactMarkdown>
    </div>
  );
}
