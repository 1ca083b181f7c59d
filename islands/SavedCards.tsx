export type SavedCardsProps = {
  labels: { defaultChanged: string; removed: string; changeDefaultFailed: string; deleteFailed: string; logFailed: string };
};

/**
 * The live regions of the saved-cards page. Without JavaScript "Make default" and "Remove" are plain
 * forms (POST, then the page again with an alert) and a card's authorisation log opens by a link.
 * SavedCards.client.ts (no React) makes both actions optimistic (the change shows at once; on failure
 * it is rolled back and the admin's error message is announced here) and loads a log when its
 * <details> opens, showing the 10-row skeleton meanwhile.
 */
export default function SavedCards(_props: SavedCardsProps) {
  return (
    <div className="saved-cards-live">
      <p className="muted" role="status" data-cards-status="" />
      <p className="field-error" role="alert" data-cards-error="" />
    </div>
  );
}
