// How a book is cut into chapters: a module of its own so the PDF's thread (pdf-thread.ts) can know it
// without loading book.ts, which reads the story from the database.

/** Exchanges per chapter, in every book format. */
export const EXCHANGES_PER_CHAPTER = 10;
