import { ColumnMapping } from '../../../components/column-mapping.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { CsvImportAction, Mapping, ParsedFile } from '../csv-import-state.ts';
import { importFields } from '../csv-mapping.ts';
import { useImportTexts } from './import-texts.ts';

/** Step 2: which column holds what, whether to leave duplicates out, and the check. */
export function ColumnStep({
  file,
  mapping,
  skipDuplicates,
  disabled,
  dispatch,
  onCheck,
}: {
  file: ParsedFile;
  mapping: Mapping;
  skipDuplicates: boolean;
  disabled: boolean;
  dispatch: (action: CsvImportAction) => void;
  onCheck: () => void;
}) {
  const { t } = useI18n();
  const { fieldLabels } = useImportTexts();
  return (
    <fieldset className="mb-3" disabled={disabled}>
      <legend className="h6">
        {t('transfer.columns-of', { file: file.name, count: file.lines.length })}
      </legend>
      <ColumnMapping
        idPrefix="map"
        fields={importFields}
        labels={fieldLabels}
        header={file.header}
        mapping={mapping}
        onChange={(field, column) => dispatch({ type: 'column', field, column })}
      />
      <div className="form-check mt-3">
        <input
          id="skip-duplicates"
          type="checkbox"
          className="form-check-input"
          checked={skipDuplicates}
          onChange={(event) => dispatch({ type: 'skip-duplicates', skip: event.target.checked })}
        />
        <label htmlFor="skip-duplicates" className="form-check-label">
          {t('transfer.skip-duplicates')}
        </label>
      </div>
      <button type="button" className="btn btn-outline-primary mt-3" onClick={onCheck}>
        {t('transfer.check')}
      </button>
    </fieldset>
  );
}
