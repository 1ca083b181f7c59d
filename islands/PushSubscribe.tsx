export type PushSubscribeState = 'needsJs' | 'unsupported' | 'off' | 'on' | 'blocked' | 'working' | 'failed';

export type PushSubscribeProps = {
  /** The VAPID public key browsers subscribe with; null when Web Push is off on this server. */
  publicKey: string | null;
  /** The service worker's address and scope (through the path prefix). */
  worker: string;
  scope: string;
  subscribeUrl: string;
  unsubscribeUrl: string;
  /** Where to go once turned on or off (the devices page with its alert). */
  onUrl: string;
  offUrl: string;
  /** The member's browsers this server already sends to (their endpoints). */
  knownEndpoints: string[];
  labels: Record<PushSubscribeState | 'turnOn' | 'turnOff', string>;
};

/**
 * "Turn on notifications in this browser", as the server renders it: without JavaScript it says that
 * push needs JavaScript, and the buttons stay hidden. PushSubscribe.client.ts (no React) finds the
 * browser's state (on, off, blocked, unsupported), shows the matching button, and announces changes.
 */
export default function PushSubscribe({ labels }: PushSubscribeProps) {
  return (
    <div className="push-subscribe">
      <p className="push-state" role="status" data-push-state="">
        {labels.needsJs}
      </p>
      <div className="push-actions">
        <button type="button" className="button" data-push-on="" hidden>
          {labels.turnOn}
        </button>
        <button type="button" className="button button-secondary" data-push-off="" hidden>
          {labels.turnOff}
        </button>
      </div>
    </div>
  );
}
