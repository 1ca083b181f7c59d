export type ModalDialogProps = {
  labels: { close: string; loading: string; failed: string; openPage: string };
  /**
   * Islands the dialogs may hold, by name, with their built entry's address: an island in a fragment
   * is brought to life by loading its entry again once the fragment is shown (e.g. NewPasswordFields).
   */
  scripts?: Record<string, string>;
};

/**
 * The generic modal (preamble's contract). The server renders nothing here: the links it enhances are
 * ordinary links to pages of their own (`<a href="/settings/security/password" data-modal>`), which
 * work without JavaScript. In the browser ModalDialog.client.ts (no React) opens `href?fragment=1` in
 * a native <dialog> for every `a[data-modal]` on the page, and posts `form[data-modal-form]` by fetch.
 */
export default function ModalDialog(_props: ModalDialogProps) {
  return null;
}
