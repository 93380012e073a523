/** A step's progress: a fraction, or null for one whose end is not known (striped). */
export function ProgressBar({ label, value }: { label: string; value: number | null }) {
  const percent = value === null ? 100 : Math.round(value * 100);
  return (
    <div className="my-3">
      <div className="small mb-1">{label}</div>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuenow={value === null ? undefined : percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`progress-bar${value === null ? ' progress-bar-striped progress-bar-animated' : ''}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
