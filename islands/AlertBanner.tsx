export type AlertBannerProps = {
  displayType: 'success' | 'error';
  title: string | null;
  message: string;
  ttl: number;
  dismissLabel: string;
};

/**
 * An alert after an action, rendered on the server (it shows, and is announced, without JavaScript).
 * AlertBanner.client.ts adds a close button and dismisses it after its ttl, unless the pointer or the
 * keyboard focus is on it.
 */
export default function AlertBanner({ displayType, title, message }: AlertBannerProps) {
  return (
    <div className={`alert alert-${displayType} alert-banner`} role={displayType === 'error' ? 'alert' : 'status'}>
      {title ? <strong className="alert-title">{title} </strong> : null}
      <span className="alert-message">{message}</span>
    </div>
  );
}
