import { useEffect, useRef, useState } from 'react';
import ConfirmForm, { type ConfirmFormProps } from './ConfirmForm.tsx';

export type AgreementDialogProps = {
  heading: string;
  intro: string;
  terms: string;
  form: ConfirmFormProps;
  notNow: { href: string; label: string };
  /** The page behind the modal (server-rendered, hidden until the modal is up). */
  behindId: string;
};

function Body({ heading, intro, terms, form }: AgreementDialogProps) {
  return (
    <>
      <h1 id="gate-heading">{heading}</h1>
      <p className="lead">{intro}</p>
      <div className="terms">
        {terms.split(/\n\s*\n/).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
      <ConfirmForm {...form} />
    </>
  );
}

/**
 * The product-agreement gate of the articles area (spec section 4): with JavaScript a modal over the
 * articles dashboard, which stays inert until the terms are accepted ("Not now" leaves the area);
 * without JavaScript the same terms and form as a page of their own.
 */
export default function AgreementDialog(props: AgreementDialogProps) {
  const [modal, setModal] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => setModal(true), []);
  useEffect(() => {
    const d = dialog.current;
    if (!modal || !d) return;
    document.getElementById(props.behindId)?.removeAttribute('hidden');
    if (!d.open) d.showModal();
    // The terms must be answered: Escape does not dismiss them ("Not now" leaves the area). Browsers
    // may close a modal on a repeated Escape whatever the page says; then it opens again.
    const stay = (e: Event) => e.preventDefault();
    const reopen = () => {
      if (!d.open && d.isConnected) d.showModal();
    };
    d.addEventListener('cancel', stay);
    d.addEventListener('close', reopen);
    return () => {
      d.removeEventListener('cancel', stay);
      d.removeEventListener('close', reopen);
    };
  }, [modal, props.behindId]);
  if (!modal) {
    return (
      <section className="narrow">
        <Body {...props} />
      </section>
    );
  }
  return (
    <dialog ref={dialog} className="modal" aria-labelledby="gate-heading">
      <Body {...props} />
      <p>
        <a href={props.notNow.href}>{props.notNow.label}</a>
      </p>
    </dialog>
  );
}
