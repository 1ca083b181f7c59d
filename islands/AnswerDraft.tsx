export type AnswerDraftProps = {
  /** The answer form and its textarea. */
  formId: string;
  fieldId: string;
  /** localStorage key: per community, member and question. */
  storageKey: string;
  restored: string;
  saved: string;
  /** The word count beside the field (`data-template` with {n}) and the panel's range. */
  counterId: string;
  min: number;
  max: number;
};

/**
 * The expert-panel answer form's helpers, without React (AnswerDraft.client.ts): the answer kept on
 * the device while typing (restored into an empty field, cleared on submit: a refused submit comes
 * back with the text anyway) and a live word count against the panel's range. Without JavaScript
 * nothing is lost either: the server returns whatever was typed, with the count it checked.
 */
export default function AnswerDraft(_props: AnswerDraftProps) {
  return <p className="ep-draft-status muted" role="status" />;
}
