/**
 * Alerts after an action (spec section 3 "Alert": id, displayType, title, message, ttl; section 7
 * "Local alert show and dismiss"). The action redirects to a page with `?alert=<id>`; the shell renders
 * that alert on the server (so it shows without JavaScript, and is announced: role status or alert),
 * and in the browser the AlertBanner island dismisses it after its ttl or on its close button. Only
 * ids listed here render: an address cannot make the page say anything else. An area adds one line
 * per alert it uses (its message in its locale file).
 */
export type AlertDisplayType = 'success' | 'error';

export type AlertView = { id: string; displayType: AlertDisplayType; title: string | null; message: string; ttl: number };

/** Spec section 9 gives 1000 ms in one reading and 5000 in another: 5000, long enough to read. */
export const ALERT_TTL_MS = 5000;

export const ALERTS: Record<string, { displayType: AlertDisplayType; messageKey: string }> = {
  // Spec section 2 (login flow): resend "shows 'Sent Code'"; the page re-rendered by the POST shows it.
  'code-sent': { displayType: 'success', messageKey: 'auth.code.sent' },
  // Spec section 4: submitting "shows a positive alert ('submitted for review')".
  'article-submitted': { displayType: 'success', messageKey: 'articles.pages.submitted' },
  'article-approved': { displayType: 'success', messageKey: 'articles.pages.approved' },
  'settings-saved': { displayType: 'success', messageKey: 'shell.alerts.saved' },
  'notification-preferences-saved': { displayType: 'success', messageKey: 'preferences.alerts.saved' },
  'push-device-removed': { displayType: 'success', messageKey: 'push.alerts.removed' },
  'push-browser-on': { displayType: 'success', messageKey: 'push.alerts.browserOn' },
  'push-browser-off': { displayType: 'success', messageKey: 'push.alerts.browserOff' },
  'notification-read': { displayType: 'success', messageKey: 'notifications.alerts.read' },
  'notifications-read': { displayType: 'success', messageKey: 'notifications.alerts.allRead' },
  'team-saved': { displayType: 'success', messageKey: 'team.alerts.saved' },
  'team-deleted': { displayType: 'success', messageKey: 'team.alerts.deleted' },
  'password-changed': { displayType: 'success', messageKey: 'settings.security.alerts.passwordChanged' },
  'phone-saved': { displayType: 'success', messageKey: 'settings.security.alerts.phoneSaved' },
  'phone-removed': { displayType: 'success', messageKey: 'settings.security.alerts.phoneRemoved' },
  'session-ended': { displayType: 'success', messageKey: 'settings.security.alerts.sessionEnded' },
  'other-sessions-ended': { displayType: 'success', messageKey: 'settings.security.alerts.othersEnded' },
  'amplify-purchased': { displayType: 'success', messageKey: 'amplify.alerts.purchased' },
  'saved-card-added': { displayType: 'success', messageKey: 'savedCards.alerts.added' },
  'saved-card-default': { displayType: 'success', messageKey: 'savedCards.alerts.defaultChanged' },
  'saved-card-removed': { displayType: 'success', messageKey: 'savedCards.alerts.removed' },
  'paynow-paid': { displayType: 'success', messageKey: 'paynow.overdue.paid' },
  'expert-answer-submitted': { displayType: 'success', messageKey: 'expertPanels.alerts.submitted' },
  'expert-answer-updated': { displayType: 'success', messageKey: 'expertPanels.alerts.updated' },
  'expert-question-cant-answer': { displayType: 'success', messageKey: 'expertPanels.alerts.cantAnswer' },
  'expert-question-ignored': { displayType: 'success', messageKey: 'expertPanels.alerts.ignored' },
  'ep-roundup-created': { displayType: 'success', messageKey: 'expertPanelsRoundups.alerts.created' },
  'ep-roundup-saved': { displayType: 'success', messageKey: 'expertPanelsRoundups.alerts.saved' },
  'ep-roundup-answers': { displayType: 'success', messageKey: 'expertPanelsRoundups.alerts.answers' },
  'ep-roundup-moved': { displayType: 'success', messageKey: 'expertPanelsRoundups.alerts.moved' },
  'ep-roundup-published': { displayType: 'success', messageKey: 'expertPanelsRoundups.alerts.published' },
};

export function alertFor(id: unknown, t: (key: string) => string): AlertView | null {
  if (typeof id !== 'string' || !Object.hasOwn(ALERTS, id)) return null;
  const a = ALERTS[id]!;
  return { id, displayType: a.displayType, title: null, message: t(a.messageKey), ttl: ALERT_TTL_MS };
}

/** The path with the alert to show after the redirect. */
export function withAlert(path: string, id: keyof typeof ALERTS & string): string {
  const [base, hash] = path.split('#', 2) as [string, string | undefined];
  return `${base}${base.includes('?') ? '&' : '?'}alert=${encodeURIComponent(id)}${hash ? `#${hash}` : ''}`;
}
