// "Show me this message" from outside the conversation (a checkpoint in the branch tree, decision 0130): the
// message may not be loaded (a page around it is read) or not drawn (the list is windowed), so the open message
// list does the finding. A request waits a moment for the list that will show it (after a branch switch the
// new branch's chat is mounting), and is kept until a list takes it.
type Reveal = (messageId: string) => void;

let handler: Reveal | null = null;
let pending: string | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Scrolls the open conversation to a message (loading the page around it if need be) and marks it. */
export function requestReveal(messageId: string): void {
  pending = messageId;
  clearTimeout(timer);
  timer = setTimeout(() => {
    const id = pending;
    if (id && handler) {
      pending = null;
      handler(id);
    }
  }, 100);
}

/** The open message list takes reveal requests while mounted (one made before it mounted, too). */
export function takeReveals(reveal: Reveal): () => void {
  handler = reveal;
  if (pending) {
    const id = pending;
    pending = null;
    queueMicrotask(() => reveal(id));
  }
  return () => {
    if (handler === reveal) handler = null;
  };
}
