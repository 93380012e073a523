import type { OneTimeLink } from '../../../../shared/schemas/account.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

/** A link to hand over: shown whole, selectable, with when it stops working. */
export function OneTimeLinkBox({ label, link }: { label: string; link: OneTimeLink }) {
  const { t, format } = useI18n();
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
        {t('admin.link.works-once', { until: format.moment(link.expiresAt) })}
      </div>
    </div>
  );
}
