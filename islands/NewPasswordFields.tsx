import { useEffect, useRef, useState } from 'react';
import { passwordCriteria } from '../shared/password-rules.ts';

export type NewPasswordFieldsProps = {
  labels: {
    password: string;
    confirm: string;
    criteria: string;
    cases: string;
    length: string;
    numbersOrSymbols: string;
    met: string;
    notMet: string;
    mismatch: string;
    tooLong: string;
    submit: string;
  };
  /** What the server found wrong, after a submit without JavaScript. */
  errors: { password?: string; confirm?: string };
  values: { password: string; confirm: string };
  /**
   * The id of the form's current-password input, where the form asks for it (settings): Save then
   * waits for it to have a value too (spec section 5).
   */
  currentId?: string;
};

/**
 * New password and its confirmation with the three visible criteria. Hydrated, the criteria tick as
 * the member types, the confirmation is checked on change and on blur, and Save is disabled while a
 * rule fails. Without JavaScript the server checks the same rules and says which one failed.
 */
export default function NewPasswordFields({ labels, errors, values, currentId }: NewPasswordFieldsProps) {
  const [password, setPassword] = useState(values.password);
  const [confirm, setConfirm] = useState(values.confirm);
  const [confirmTouched, setConfirmTouched] = useState(Boolean(values.confirm));
  const [hydrated, setHydrated] = useState(false);
  const [currentGiven, setCurrentGiven] = useState(!currentId);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!currentId) return;
    const current = document.getElementById(currentId) as HTMLInputElement | null;
    if (!current) return setCurrentGiven(true); // nothing to wait for: the server still checks it
    const check = () => setCurrentGiven(current.value !== '');
    check();
    current.addEventListener('input', check);
    current.addEventListener('change', check);
    return () => {
      current.removeEventListener('input', check);
      current.removeEventListener('change', check);
    };
  }, [currentId]);

  const c = passwordCriteria(password);
  const strong = c.cases && c.length && c.numbersOrSymbols && c.notTooLong;
  const mismatch = hydrated ? confirmTouched && confirm !== password : Boolean(errors.confirm);
  const passwordError = hydrated ? (!c.notTooLong ? labels.tooLong : undefined) : errors.password;
  const criteria: Array<[keyof typeof c, string]> = [
    ['cases', labels.cases],
    ['length', labels.length],
    ['numbersOrSymbols', labels.numbersOrSymbols],
  ];
  // Screen readers hear a criterion when it changes (met or no longer met), not every keystroke.
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef(c);
  useEffect(() => {
    const changed = criteria.filter(([key]) => previous.current[key] !== c[key]).map(([key, label]) => `${label} (${c[key] ? labels.met : labels.notMet})`);
    previous.current = c;
    if (changed.length > 0) setAnnouncement(changed.join('. '));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [c.cases, c.length, c.numbersOrSymbols]);
  return (
    <>
      <div className={passwordError ? 'field field-invalid' : 'field'}>
        <label htmlFor="new-password">{labels.password}</label>
        <input
          id="new-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={256}
          value={password}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? 'new-password-criteria new-password-error' : 'new-password-criteria'}
          onChange={(e) => setPassword(e.target.value)}
        />
        {passwordError ? (
          <p className="field-error" id="new-password-error">
            {passwordError}
          </p>
        ) : null}
      </div>
      <div className="criteria" id="new-password-criteria">
        <p>{labels.criteria}</p>
        <ul>
          {criteria.map(([key, label]) => (
            <li key={key} className={c[key] ? 'criterion criterion-met' : 'criterion'}>
              <span aria-hidden="true">{c[key] ? '✓' : '•'}</span> {label}
              <span className="visually-hidden"> ({c[key] ? labels.met : labels.notMet})</span>
            </li>
          ))}
        </ul>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
      </div>
      <div className={mismatch ? 'field field-invalid' : 'field'}>
        <label htmlFor="confirm-password">{labels.confirm}</label>
        <input
          id="confirm-password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          maxLength={256}
          value={confirm}
          aria-invalid={mismatch || undefined}
          aria-describedby={mismatch ? 'confirm-password-error' : undefined}
          onChange={(e) => {
            setConfirm(e.target.value);
            setConfirmTouched(true);
          }}
          onBlur={() => setConfirmTouched(true)}
        />
        {mismatch ? (
          <p className="field-error" id="confirm-password-error" role="status">
            {labels.mismatch}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={hydrated && (!strong || confirm !== password || !currentGiven)}>
        {labels.submit}
      </button>
    </>
  );
}
