export type PreferenceSaverProps = {
  /** The member GraphQL endpoint, through the path prefix. */
  endpoint: string;
  labels: { failed: string; saved: string };
};

/**
 * The live regions of the notification preferences form. Without JavaScript the form is saved by its
 * button. PreferenceSaver.client.ts (no React) saves each checkbox at once instead, optimistically
 * (notificationsPreferenceSelection): the box has flipped already; if the save fails it flips back
 * and the failure is announced here (role alert). The email rhythm saves the same way
 * (notificationsEmailDigest), and the button goes away.
 */
export default function PreferenceSaver(_props: PreferenceSaverProps) {
  return (
    <div className="preference-live">
      <p className="preference-saved muted" role="status" data-preference-saved="" />
      <p className="field-error preference-failed" role="alert" data-preference-failed="" />
    </div>
  );
}
