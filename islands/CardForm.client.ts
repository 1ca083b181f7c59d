import type { CardFormIslandProps } from './CardForm.tsx';

/** What the provider's script (GET {serverHost}/js/card.js) puts on window. */
type TokenizeAnswer = { token: string } | { invalid: string[] } | { challengeUrl: string; token?: string };
type Mounted = { tokenize(): Promise<TokenizeAnswer> };
type ProviderScript = { mount(container: HTMLElement, options: { publicKey: string; serverHost: string; legend?: string }): Mounted };

declare global {
  interface Window {
    SandboxPay?: ProviderScript;
  }
}

const loads = new Map<string, Promise<ProviderScript>>();

/** The provider's script, once per page however many card forms there are. */
function loadScript(src: string): Promise<ProviderScript> {
  let p = loads.get(src);
  if (!p) {
    p = new Promise((resolve, reject) => {
      if (window.SandboxPay) return resolve(window.SandboxPay);
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => (window.SandboxPay ? resolve(window.SandboxPay) : reject(new Error('the card script loaded but defined nothing')));
      s.onerror = () => reject(new Error(`the card script did not load: ${src}`));
      document.head.append(s);
    });
    loads.set(src, p);
  }
  return p;
}

/**
 * The card form in the browser, without React. It loads the provider's script and mounts its card
 * inputs (no `name` attributes: never posted to us). On submit it tokenises: a token goes into a
 * hidden `token` input and the form is posted as it is; invalid fields get spec section 5's message;
 * a card that needs the 3-D-Secure-style step posts the form with `cardChallenge` instead, and the
 * handler's answer (hostedPageAddress) sends the browser to the provider's challenge page. Script
 * errors and failed tokenisations are reported to the error-log calls of spec section 7. If the
 * script cannot load, the message says so and the form still posts, without a token: the handler
 * then sends the browser to the provider's hosted page, as it does without JavaScript.
 */
export default function enhanceCardForm(island: HTMLElement, props: CardFormIslandProps): void {
  const form = island.closest('form');
  const note = island.querySelector<HTMLElement>('[data-card-note]');
  const mountPoint = island.querySelector<HTMLElement>('[data-card-mount]');
  const message = island.querySelector<HTMLElement>('[data-card-message]');
  if (!form || !note || !mountPoint || !message) return;
  const { labels, log } = props;
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');

  // Spec section 7: a failure report (user id, error, category Payment, the value); the stage
  // (load, mount, tokenize) leads the error text.
  const report = (url: string, stage: 'load' | 'mount' | 'tokenize', error: unknown) => {
    const text = `${stage}: ${error instanceof Error ? error.message : String(error)}`;
    const category = 'Payment';
    fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ error: text, category, userId: log.userId ?? null, email: log.email ?? null, value: log.value ?? null, uri: location.pathname }),
    }).catch(() => {});
  };
  const say = (text: string) => {
    message.textContent = text;
  };

  let mounted: Mounted | null = null;
  loadScript(props.scriptUrl).then(
    (provider) => {
      try {
        mounted = provider.mount(mountPoint, { publicKey: props.publicKey, serverHost: props.serverHost, legend: labels.legend });
        mountPoint.hidden = false;
        note.hidden = true;
      } catch (e) {
        say(labels.scriptLoad);
        report(log.scriptUrl, 'mount', e);
      }
    },
    (e) => {
      say(labels.scriptLoad);
      report(log.scriptUrl, 'load', e);
    },
  );

  const post = (name: string, value: string) => {
    let input = form.querySelector<HTMLInputElement>(`input[type="hidden"][name="${name}"]`);
    if (!input) {
      input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      form.append(input);
    }
    input.value = value;
    // The prototype's submit: no submit event again, and a field named "submit" cannot shadow it.
    HTMLFormElement.prototype.submit.call(form);
  };

  let busy = false;
  form.addEventListener('submit', (event) => {
    // Without the provider's inputs (the script did not load) the form goes as it would without JavaScript.
    if (!mounted) return;
    event.preventDefault();
    if (busy || !consentsGiven(form)) return;
    busy = true;
    if (button) button.disabled = true;
    say('');
    mounted.tokenize().then(
      (answer) => {
        if ('invalid' in answer) {
          const names = answer.invalid.map((f) => labels.fields[f] ?? f);
          say(labels.invalidFields.replace('{fields}', names.join(', ')));
        } else if ('challengeUrl' in answer && answer.token) {
          return post('cardChallenge', answer.token);
        } else if ('token' in answer && answer.token) {
          return post('token', answer.token);
        }
        busy = false;
        if (button) button.disabled = false;
      },
      (e) => {
        busy = false;
        if (button) button.disabled = false;
        say(labels.failed);
        report(log.clientUrl, 'tokenize', e);
      },
    );
  });
}

/**
 * The form's own checkboxes that must be ticked (the onboarding terms: `data-required-message`) are
 * checked before the card is tokenised: the server would refuse the form, and the page it answers
 * with would have lost the card typed into the provider's inputs. An unticked box gets the server's
 * message by it (the same markup as FieldNotes) and the focus; a ticked one loses an old message.
 */
function consentsGiven(form: HTMLFormElement): boolean {
  let first: HTMLInputElement | null = null;
  for (const box of form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][data-required-message]')) {
    const id = `${box.id}-error`;
    const field = box.closest('.field');
    let note = document.getElementById(id);
    const ids = (box.getAttribute('aria-describedby') ?? '').split(' ').filter((i) => i && i !== id);
    if (box.checked) {
      note?.remove();
      field?.classList.remove('field-invalid');
      box.removeAttribute('aria-invalid');
    } else {
      if (!note) {
        note = document.createElement('p');
        note.className = 'field-error';
        note.id = id;
        (field ?? box.parentElement!).append(note);
      }
      note.textContent = box.dataset.requiredMessage ?? '';
      field?.classList.add('field-invalid');
      box.setAttribute('aria-invalid', 'true');
      ids.push(id);
      first ??= box;
    }
    if (ids.length) box.setAttribute('aria-describedby', ids.join(' '));
    else box.removeAttribute('aria-describedby');
  }
  first?.focus();
  return first === null;
}
