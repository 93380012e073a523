export function PageLoading() {
  return (
    <div className="text-center py-5" role="status">
      <span className="spinner-border" aria-hidden="true" />
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

export function PageLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div
      className="alert alert-danger d-flex justify-content-between align-items-center"
      role="alert"
    >
      <span>Could not load this page: {error.message}</span>
      <button type="button" className="btn btn-sm btn-outline-light" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
