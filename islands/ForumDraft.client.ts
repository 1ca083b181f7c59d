import type { ForumDraftProps } from './ForumDraft.tsx';

type Draft = { title: string; body: string };

function keepDraft(island: HTMLElement, { formId, storageKey, restored, saved }: ForumDraftProps) {
  const form = document.getElementById(formId) as HTMLFormElement | null;
  const status = island.querySelector<HTMLElement>('.forum-draft-status');
  const title = form?.elements.namedItem('title') as HTMLInputElement | null;
  const body = form?.elements.namedItem('body') as HTMLTextAreaElement | null;
  if (!form || !title || !body) return;
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  try {
    const stored = localStorage.getItem(storageKey);
    const draft = stored ? (JSON.parse(stored) as Partial<Draft>) : null;
    // Only into an empty form: a form the server filled (a refused submit) already holds what was typed.
    if (draft && !title.value && !body.value && (draft.title || draft.body)) {
      title.value = typeof draft.title === 'string' ? draft.title : '';
      body.value = typeof draft.body === 'string' ? draft.body : '';
      say(restored);
    }
  } catch {
    // Storage off or a broken entry: no draft.
  }
  let timer = 0;
  form.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      try {
        if (!title.value && !body.value) localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, JSON.stringify({ title: title.value, body: body.value } satisfies Draft));
        say(saved);
      } catch {
        // Full or refused storage: the form still works.
      }
    }, 400);
  });
  form.addEventListener('submit', () => {
    window.clearTimeout(timer);
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // Nothing to clear.
    }
  });
}

function countCharacters(id: string) {
  const field = document.getElementById(id) as HTMLTextAreaElement | null;
  const counter = document.getElementById(`${id}-count`);
  if (!field || !counter) return;
  const template = counter.dataset.template ?? '{n}';
  const max = Number(counter.dataset.max ?? 0);
  const update = () => {
    counter.textContent = template.replace('{n}', String(field.value.length));
    counter.classList.toggle('word-count-over', max > 0 && field.value.length > max);
  };
  field.addEventListener('input', update);
  update();
}

export default function enhanceForumForm(island: HTMLElement, props: ForumDraftProps): void {
  if (props.formId) keepDraft(island, props);
  if (props.counterFor) countCharacters(props.counterFor);
}
