import './progress.css';

/** A bar filling left to right with its label on it (an upload, a CSV read or import); `value` is 0…1. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={label}>
      <div className="progress-bar" style={{ width: `${percent}%` }} />
      <span>{label}</span>
    </div>
  );
}
