import type { IntroduceDialogProps } from './IntroduceDialog.tsx';
import { installModal } from './modal.ts';

let installed = false;

/**
 * The request-introduction modal without React, on the generic modal's code (islands/modal.ts):
 * clicks on any `a[data-introduce]` open a native <dialog> (showModal: focus kept inside, Escape
 * closes, a backdrop) holding the request form, fetched as a fragment of the request page. The form
 * posts by fetch; the answer (the form again with its field messages and the typed text, or the
 * confirmation) replaces the dialog's content; a redirect is a failure. Closing returns focus to the
 * link. Any failure falls back to the page itself.
 */
export default function enhanceIntroduce(_island: HTMLElement, { labels }: IntroduceDialogProps): void {
  if (installed) return;
  installed = true;
  installModal({
    labels,
    selectors: { link: 'a[data-introduce]', form: 'form[data-introduce-form]', cancel: '[data-introduce-cancel]' },
    classes: { dialog: 'modal introduce-modal', close: 'link-button introduce-close', body: 'introduce-body' },
    // The first invalid field, the reason's textarea or the confirmation's link, in the page's order.
    focus: ['[aria-invalid="true"], textarea, [data-introduce-focus]'],
    heading: 'h2',
    labelledBy: 'introduce-heading',
    followRedirect: false,
  });
}
