import { useEffect, useState } from 'react';

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
};

/**
 * A form confirmed by ticking a box (the product agreement, approving an article). Without JavaScript
 * the server refuses an unticked box with a message; hydrated, the button stays disabled until ticked.
 */
export default function ConfirmForm(props: ConfirmFormProps) {
  const [hydrated, setHydrated] = useState(false);
  const [ticked, setTicked] = useState(false);
  useEffect(() => setHydrated(true), []);
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
      <button type="submit" className="button" disabled={hydrated && !ticked}>
        {props.buttonLabel}
      </button>
    </form>
  );
}
