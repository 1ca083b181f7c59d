import type { AnswerDraftProps } from './AnswerDraft.tsx';

/** Words as the server counts them, near enough: the light formatting's marks are not words. */
function countWords(text: string): number {
  const plain = text.replace(/^[ \t]*[-*•][ \t]+/gm, ' ').replace(/\*+/g, '');
  const words = plain.trim();
  return words === '' ? 0 : words.split(/\s+/).length;
}

export default function enhanceAnswerForm(island: HTMLElement, props: AnswerDraftProps): void {
  const form = document.getElementById(props.formId) as HTMLFormElement | null;
  const field = document.getElementById(props.fieldId) as HTMLTextAreaElement | null;
  const counter = document.getElementById(props.counterId);
  const status = island.querySelector<HTMLElement>('.ep-draft-status');
  if (!form || !field) return;
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const count = () => {
    if (!counter) return;
    const n = countWords(field.value);
    counter.textContent = (counter.dataset.template ?? '{n}').replace('{n}', String(n));
    counter.classList.toggle('word-count-over', n > props.max || (n > 0 && n < props.min));
  };
  try {
    const draft = localStorage.getItem(props.storageKey);
    // Only into an empty field: a field the server filled (a refused submit, an edit) holds the text already.
    if (draft && !field.value) {
      field.value = draft;
      say(props.restored);
    }
  } catch {
    // Storage off: no draft.
  }
  count();
  let timer = 0;
  field.addEventListener('input', () => {
    count();
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      try {
        if (!field.value) localStorage.removeItem(props.storageKey);
        else localStorage.setItem(props.storageKey, field.value);
        say(props.saved);
      } catch {
        // Full or refused storage: the form still works.
      }
    }, 400);
  });
  form.addEventListener('submit', () => {
    window.clearTimeout(timer);
    try {
      localStorage.removeItem(props.storageKey);
    } catch {
      // Nothing to clear.
    }
  });
}
