/**
 * The button under a list that pages (the history, money out, the audit trail, a webhook's
 * deliveries): it asks for the next page, and says so while that page comes, when it cannot be
 * pressed again.
 */
export function LoadMore({
  loading,
  onClick,
  label,
  loadingLabel,
}: {
  loading: boolean;
  onClick: () => void;
  /** What it does ("Load more", "Show older"). */
  label: string;
  /** What it says while the page comes. */
  loadingLabel: string;
}) {
  return (
    <button
      type="button"
      className="button button-secondary load-more"
      onClick={onClick}
      disabled={loading}
    >
      {loading ? loadingLabel : label}
    </button>
  );
}
