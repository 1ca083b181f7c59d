import { type ReactNode, useEffect, useRef, useState } from 'react';

export type ConfirmFormProps = {
  action: string;
  csrf: string;
  hidden?: Record<string, string>;
  /** The checkbox's form name and id. */
  name: string;
  checkLabel: string;
  buttonLabel: string;
  error?: string;
  className?: string;
  /**
   * Hydrated, the form is in a modal opened by a button (`open`), with a heading and an intro; its
   * own button is then `confirm`. Without JavaScript the form is on the page as it is.
   */
  modal?: { open: string; heading: string; intro: string; confirm: string; cancel: string };
};

/**
 * A form confirmed by ticking a box (the product agreement, approving an article). Without JavaScript
 * the server refuses an unticked box with a message; hydrated, the button stays disabled until ticked.
 */
export default function ConfirmForm(props: ConfirmFormProps) {
  const [hydrated, setHydrated] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => setHydrated(true), []);
  // A post refused for an unticked box comes back with the modal open at the box and its message.
  useEffect(() => {
    if (hydrated && props.modal && props.error && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [hydrated, props.modal, props.error]);
  if (!hydrated || !props.modal) return <TickForm {...props} hydrated={hydrated} />;
  const headingId = `${props.name}-modal-heading`;
  return (
    <>
      <button type="button" className="button" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
        {props.modal.open}
      </button>
      <dialog ref={dialog} className="modal" aria-labelledby={headingId}>
        <h2 id={headingId}>{props.modal.heading}</h2>
        <p>{props.modal.intro}</p>
        <TickForm {...props} buttonLabel={props.modal.confirm} hydrated>
          <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
            {props.modal.cancel}
          </button>
        </TickForm>
      </dialog>
    </>
  );
}

function TickForm(props: ConfirmFormProps & { hydrated: boolean; children?: ReactNode }) {
  const { hydrated } = props;
  const [ticked, setTicked] = useState(false);
  const errorId = `${props.name}-error`;
  return (
    <form method="post" action={props.action} className={props.className ?? 'stack'}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="check">
        <input
          type="checkbox"
          id={props.name}
          name={props.name}
          checked={ticked}
          onChange={(e) => setTicked(e.target.checked)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
        />
        <label htmlFor={props.name}>{props.checkLabel}</label>
      </div>
      {props.error ? (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button" disabled={hydrated && !ticked}>
          {props.buttonLabel}
        </button>
        {props.children}
      </div>
    </form>
  );
}
