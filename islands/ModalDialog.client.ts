import { installModal } from './modal.ts';
import type { ModalDialogProps } from './ModalDialog.tsx';

let installed = false;

const FIELDS = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * The generic modal, without React (the contract in the notes; the code is islands/modal.ts, which
 * IntroduceDialog.client.ts uses too). A click on any `a[data-modal]` opens a native <dialog> holding
 * `href?fragment=1`, labelled by its first heading. A `form[data-modal-form]` inside posts by fetch: a
 * 200 answer replaces the content (field messages, typed values), a redirected one means done and the
 * browser goes there (the section page with its alert). Focus goes to the first invalid field, else
 * the first field; closing returns it to the link. Any failure offers the page itself.
 */
export default function enhanceModals(_island: HTMLElement, { labels, scripts = {} }: ModalDialogProps): void {
  if (installed) return;
  installed = true;
  installModal({
    labels,
    scripts,
    selectors: { link: 'a[data-modal]', form: 'form[data-modal-form]', cancel: '[data-modal-cancel]' },
    classes: { dialog: 'modal modal-dialog', close: 'link-button modal-close', body: 'modal-body' },
    focus: ['[aria-invalid="true"]', FIELDS],
    heading: 'h1, h2, h3',
    followRedirect: true,
  });
}
