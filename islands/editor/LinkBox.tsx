import { useState } from 'react';
import { SAFE_URL } from './url.ts';

export type LinkBoxLabels = { linkUrl: string; linkInvalid: string; apply: string; cancel: string };

/** An address as typed, made whole (example.com → https://example.com), or null if it is not a web or mail address. */
export function normaliseUrl(typed: string): string | null {
  let url = typed.trim();
  if (url && !/^[a-z]+:/i.test(url)) url = `https://${url}`;
  return SAFE_URL.test(url) && /^(mailto:[^\s@]+@[^\s@]+|https?:\/\/[^\s/]+\.[^\s]+)$/i.test(url) ? url : null;
}

/** The small form under a toolbar for a link's address. */
export function LinkBox({ labels, onApply, onClose }: { labels: LinkBoxLabels; onApply: (url: string) => void; onClose: () => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const apply = () => {
    const url = normaliseUrl(value);
    if (!url) return setInvalid(true);
    onApply(url);
    onClose();
  };
  return (
    <div className="link-box">
      <label htmlFor="link-url">{labels.linkUrl}</label>
      <input
        id="link-url"
        type="url"
        value={value}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
          if (e.key === 'Escape') onClose();
        }}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'link-error' : undefined}
      />
      <button type="button" className="button button-secondary" onClick={apply}>
        {labels.apply}
      </button>
      <button type="button" className="link-button" onClick={onClose}>
        {labels.cancel}
      </button>
      {invalid ? (
        <p className="field-error" id="link-error">
          {labels.linkInvalid}
        </p>
      ) : null}
    </div>
  );
}
