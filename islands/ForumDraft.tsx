export type ForumDraftProps = {
  /** The form whose title and message are kept as a draft ('' for none). */
  formId: string;
  /** localStorage key: per community and member. */
  storageKey: string;
  restored: string;
  saved: string;
  /** A textarea whose length a counter beside it (`<id>-count`, with data-template and data-max) shows while typing. */
  counterFor?: string;
};

/**
 * The forum's small helpers on its form pages, without React (ForumDraft.client.ts): the new post's
 * draft (title and message kept on the device while typing, restored into an empty form, cleared on
 * submit: a refused submit comes back with the text anyway), and a report's live character count.
 * Without JavaScript nothing is lost either: the server returns whatever was typed.
 */
export default function ForumDraft(_props: ForumDraftProps) {
  return <p className="forum-draft-status muted" role="status" />;
}
