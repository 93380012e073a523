import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';

/** The file's first rows as read with the settings chosen, each column marked with its use. */
export function CsvSample({
  columnNames,
  mappedAs,
  sample,
}: {
  columnNames: string[];
  mappedAs: ReadonlyMap<number, string>;
  sample: string[][];
}) {
  const { t } = useI18n();
  return (
    <ScrollRegion label={t('bank.sample.label')} className="mb-3 border rounded">
      <table className="table table-sm mb-0 bank-sample">
        <caption className="px-2 small">
          {t('bank.sample.caption', { count: sample.length })}
        </caption>
        <thead>
          <tr>
            {columnNames.map((name, index) => (
              <th key={index} scope="col" className="text-nowrap">
                {name}
                {mappedAs.has(index) && (
                  <span className="badge text-bg-primary ms-1">{mappedAs.get(index)}</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sample.map((row, index) => (
            <tr key={index}>
              {columnNames.map((_, column) => (
                <td key={column} className="text-nowrap">
                  {row[column] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
