import { describe, expect, it } from 'vitest';
import { statementColumnMessages } from '../../src/client/features/statements/statement-column-messages.ts';
import english from '../../src/client/locales/en/pages/statement.json' with { type: 'json' };
import { translate } from '../../src/server/i18n.ts';
import {
  activityColumns,
  ageingColumns,
  openItemColumns,
} from '../../src/shared/statement-columns.ts';

// The page reads a column's heading by its key, the server by its English text: both must name
// the same heading, in every language the server writes.
describe.each([
  ['open items', openItemColumns],
  ['activity', activityColumns],
  ['ageing', ageingColumns],
] as const)('the statement’s %s columns', (_name, columns) => {
  it('have the same English heading in the app’s catalogue as the server translates', () => {
    const catalogue = english as Record<string, string>;
    expect(columns.map((column) => catalogue[statementColumnMessages[column.key]])).toEqual(
      columns.map((column) => column.label),
    );
  });

  it('are translated by the server into Korean and Malay', () => {
    for (const locale of ['ko', 'ms'] as const)
      for (const column of columns)
        expect(translate(locale, column.label), `${locale}: ${column.label}`).not.toBe(
          column.label,
        );
  });
});
