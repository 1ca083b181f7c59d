/**
 * An item of the community's library (the content bank, decision 0061) as the area that owns it
 * describes it: the areas whose work the library holds (articles, expert panels) answer these facts
 * for the ids the bank asks about, through their faces, and leave out every id that is not (or no
 * longer) in the library. The bank indexes what they answer and never reads their tables.
 */
export type LibraryFacts = {
  id: number;
  title: string;
  /** The plain text a search reads (its first words are the summary). */
  text: string;
  /** Its body as its area stores it (sanitised rich text), for an export of the item. */
  html: string;
  authorId: number | null;
  authorName: string;
  publishedAt: Date;
  /** Where a reader opens it: an absolute address, or an application path (no base path). */
  url: string | null;
  /** Where staff open it: an application path. */
  staffPath: string;
};
