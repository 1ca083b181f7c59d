export type CardFormIslandProps = {
  /** The provider's script (BrowserSettings.scriptUrl) and what it mounts with. */
  scriptUrl: string;
  publicKey: string;
  serverHost: string;
  /** The error-log calls of spec section 7 (with the base path), and who and what they report. */
  log: { clientUrl: string; scriptUrl: string; userId?: number; email?: string; value?: string };
  labels: {
    /** Shown without JavaScript (and until the script has mounted the inputs). */
    secureNote: string;
    /** The fields by name as spec section 5 labels them (First name, Card number, …). */
    fields: Record<string, string>;
    /** 'Enter valid information for the following input(s): {fields}.' */
    invalidFields: string;
    /** 'It looks like we encountered an error.' */
    scriptLoad: string;
    /** A tokenisation that failed (the provider could not be reached). */
    failed: string;
    /** The legend of the card's fields. */
    legend: string;
  };
};

/**
 * The card fields' place in a CardForm (views/payments/CardForm.tsx). The server renders no card
 * input at all: a note says the card is entered on the provider's secure page, where the form's
 * handler sends a browser without JavaScript. CardForm.client.ts (no React) loads the provider's
 * script, mounts its inputs here (they have no `name`, so they are never posted to us), tokenises
 * on submit and posts the token instead.
 */
export default function CardForm({ labels }: CardFormIslandProps) {
  return (
    <div className="card-fields">
      <p className="card-secure-note muted" data-card-note="">
        {labels.secureNote}
      </p>
      <div data-card-mount="" hidden />
      <p className="field-error card-fields-error" role="alert" data-card-message="" />
    </div>
  );
}
