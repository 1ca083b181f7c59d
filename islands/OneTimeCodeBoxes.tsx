import { useEffect, useRef, useState } from 'react';

export type OneTimeCodeBoxesProps = {
  length: number;
  legend: string;
  digitLabel: string; // "Digit {n} of 5" with {n} to fill in
  submitLabel: string;
  invalid: boolean;
  errorId?: string;
};

/**
 * The sign-in code. Without JavaScript (and in the server's markup) it is one labelled field
 * (`code`): five one-character boxes would keep only the first digit of a pasted code. Hydrated, it
 * becomes five single-digit boxes (d1..d5; what was already typed is carried over): typing moves to
 * the next box, Backspace to the previous, a pasted 5-character value fills them all, and Verify is
 * enabled only when all five are there. The server takes either.
 */
export default function OneTimeCodeBoxes({ length, legend, digitLabel, submitLabel, invalid, errorId }: OneTimeCodeBoxesProps) {
  const [digits, setDigits] = useState<string[]>(() => Array.from({ length }, () => ''));
  const [hydrated, setHydrated] = useState(false);
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const single = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    // Whatever was typed into the single field before the script arrived moves into the boxes.
    const typed = (single.current?.value ?? '').replace(/\D/g, '').slice(0, length).split('');
    const hadFocus = single.current !== null && document.activeElement === single.current;
    if (typed.length > 0) setDigits(Array.from({ length }, (_, i) => typed[i] ?? ''));
    setHydrated(true);
    if (hadFocus) requestAnimationFrame(() => boxes.current[Math.min(typed.length, length - 1)]?.focus());
  }, [length]);

  const fill = (start: number, text: string) => {
    const chars = text.replace(/\D/g, '').slice(0, length - start).split('');
    if (chars.length === 0) return;
    setDigits((prev) => {
      const next = [...prev];
      chars.forEach((c, i) => (next[start + i] = c));
      return next;
    });
    boxes.current[Math.min(start + chars.length, length - 1)]?.focus();
  };

  const complete = digits.every((d) => /^\d$/.test(d));
  if (!hydrated) {
    return (
      <>
        <div className="field code-field">
          <label htmlFor="one-time-code">{legend}</label>
          <input
            ref={single}
            id="one-time-code"
            name="code"
            className="code-single"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={length * 2}
            required
            aria-invalid={invalid || undefined}
            aria-describedby={invalid ? errorId : undefined}
          />
        </div>
        <button type="submit" name="action" value="verify" className="button">
          {submitLabel}
        </button>
      </>
    );
  }
  return (
    <>
      <fieldset className="code-boxes" aria-describedby={invalid ? errorId : undefined}>
        <legend>{legend}</legend>
        {digits.map((digit, i) => (
          <input
            key={i}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            name={`d${i + 1}`}
            className="code-box"
            inputMode="numeric"
            pattern="[0-9]"
            maxLength={length}
            autoComplete={i === 0 ? 'one-time-code' : 'off'}
            aria-label={digitLabel.replace('{n}', String(i + 1))}
            aria-invalid={invalid || undefined}
            required
            value={digit}
            onChange={(e) => {
              const value = e.target.value;
              if (value.length > 1) return fill(i, value); // autofill or a fast typist
              setDigits((prev) => prev.map((d, j) => (j === i ? value.replace(/\D/g, '') : d)));
              if (/^\d$/.test(value)) boxes.current[i + 1]?.focus();
            }}
            onKeyDown={(e) => {
              if (e.key === 'Backspace' && !digits[i] && i > 0) boxes.current[i - 1]?.focus();
            }}
            onPaste={(e) => {
              e.preventDefault();
              fill(0, e.clipboardData.getData('text'));
            }}
          />
        ))}
      </fieldset>
      <button type="submit" name="action" value="verify" className="button" disabled={!complete}>
        {submitLabel}
      </button>
    </>
  );
}
