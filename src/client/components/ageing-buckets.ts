import { ageingBucketLabels, type AgeingBucketName } from '../../shared/client-list.ts';
import { useI18n } from '../i18n/use-i18n.ts';

const bucketNames = Object.keys(ageingBucketLabels) as AgeingBucketName[];

/** The ageing buckets in order ("Current", "1-30 days", …), named in the shown language. */
export function useAgeingBuckets(): { name: AgeingBucketName; label: string }[] {
  const { t } = useI18n();
  const labels: Record<AgeingBucketName, string> = {
    current: t('dashboard.ageing.current'),
    days1to30: t('dashboard.ageing.days1to30'),
    days31to60: t('dashboard.ageing.days31to60'),
    days61to90: t('dashboard.ageing.days61to90'),
    over90: t('dashboard.ageing.over90'),
  };
  return bucketNames.map((name) => ({ name, label: labels[name] }));
}
