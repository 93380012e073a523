import type { OneTimeLink } from '../../../../shared/schemas/account.ts';

/** A link to hand over: shown whole, selectable, with when it stops working. */
export function OneTimeLinkBox({ label, link }: { label: string; link: OneTimeLink }) {
  const url = `${window.location.origin}${link.path}`;
  return (
    <div className="alert alert-info" role="status">
      <label className="form-label d-block">
        {label}
        <input
          className="form-control mt-1 font-monospace"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
      </label>
      <div className="small">
        Works once, until {new Date(link.expiresAt).toLocaleString()}. It is shown only now: copy it
        and hand it over.
      </div>
    </div>
  );
}
