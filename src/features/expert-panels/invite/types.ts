/** What the invitation page shows (plain data; the views import these types only). */

/** One open question of an invitation, as the member reads it. */
export type InviteQuestionView = {
  id: number;
  title: string;
  panelName: string;
  /** The batch's deadline. */
  deadline: Date;
  /** Sanitised HTML written by editors. */
  briefHtml: string;
  guidelinesHtml: string;
  minWords: number;
  maxWords: number;
};

/** An answer form's state: what the member typed, and what was wrong with it. */
export type InviteFormState = { value: string; error?: string; formError?: string };

/** An invitation link's parts as strings: its query string, and the hidden fields of the page's forms. */
export type InvitationFields = { ids: string; m: string; exp: string; sig: string };
