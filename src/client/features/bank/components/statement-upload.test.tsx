import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bankFileMaxBytes } from '../../../../shared/schemas/bank.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { StatementUpload, useUploadForm } from './statement-upload.tsx';
import type { UploadForm } from './upload-form.ts';

beforeAll(async () => {
  await loadLocale('ko');
  await loadLocale('en');
});
afterEach(() => i18n.activate('en'));

const rows = [
  ['Date', 'Memo', 'Amount'],
  ['2026-03-01', 'IBG ZOE MULLER', '120.00'],
];

/** Step 1 as the page holds it: the form outlives the step, shown again after the review. */
function Page({ read }: { read: UploadForm[] }) {
  const upload = useUploadForm('MYR');
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown((now) => !now)}>
        step
      </button>
      {shown && (
        <StatementUpload
          upload={upload}
          accounts={[{ label: 'Maybank current', currency: 'USD' }]}
          busy={false}
          onFile={(file) =>
            upload.setValue('file', {
              name: file.name,
              bytes: new Uint8Array([1, 2, 3]),
              format: 'csv',
              rows,
              clean: true,
            })
          }
          onEncoding={() => undefined}
          onSubmit={async (values) => {
            read.push(values);
            await Promise.resolve();
          }}
        />
      )}
    </>
  );
}

const chooseFile = (file = new File(['x'], 'statement.csv', { type: 'text/csv' })) =>
  fireEvent.change(document.querySelector('input[type="file"]') as HTMLInputElement, {
    target: { files: [file] },
  });

describe('step 1 of the bank import', () => {
  it('checks the account and the columns with the shared schema, before anything is read', async () => {
    const read: UploadForm[] = [];
    render(<Page read={read} />);
    chooseFile();
    await screen.findByText('statement.csv', { exact: false });
    fireEvent.click(screen.getByRole('button', { name: 'Read the statement' }));
    expect(await screen.findByText('Name the bank account.')).toBeTruthy();
    expect(screen.getByText('Choose the date and the description columns.')).toBeTruthy();
    expect(screen.getByLabelText('Bank account').getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText('Bank account'), {
      target: { value: 'Maybank current' },
    });
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the statement' }));
    expect(await screen.findByText('Choose the amount column, or the credit column.')).toBeTruthy();
    expect(screen.queryByText('Name the bank account.')).toBeNull();
    expect(read).toEqual([]);

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the statement' }));
    await waitFor(() => expect(read).toHaveLength(1));
    // A known account brings its currency; the file's bytes are passed on as chosen.
    expect(read[0]).toMatchObject({
      accountLabel: 'Maybank current',
      currency: 'USD',
      columns: { date: 0, description: 1, amount: 2, credit: null },
      file: { name: 'statement.csv', bytes: new Uint8Array([1, 2, 3]) },
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps what was chosen when the step is shown again', async () => {
    render(<Page read={[]} />);
    chooseFile();
    fireEvent.change(await screen.findByLabelText('Date'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Bank account'), { target: { value: 'Savings' } });
    fireEvent.change(screen.getByLabelText('Date order'), { target: { value: 'DMY' } });
    fireEvent.click(screen.getByRole('button', { name: 'step' }));
    expect(screen.queryByLabelText('Bank account')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'step' }));
    expect(screen.getByLabelText('Bank account')).toHaveProperty('value', 'Savings');
    expect(screen.getByLabelText('Date')).toHaveProperty('value', '0');
    expect(screen.getByLabelText('Date order')).toHaveProperty('value', 'DMY');
  });

  it('refuses a file over the size limit before reading or sending it', async () => {
    const read: UploadForm[] = [];
    render(<Page read={read} />);
    const big = new File([new Uint8Array(bankFileMaxBytes + 1)], 'year.csv', { type: 'text/csv' });
    chooseFile(big);
    expect(
      await screen.findByText(
        'This file is larger than 4 MB, the most a statement may be. Export a shorter period.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('year.csv', { exact: false })).toBeNull();
    expect(screen.getByLabelText('Statement file').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Read the statement' })).toHaveProperty(
      'disabled',
      true,
    );
    // A file of the limit itself is taken.
    chooseFile(new File([new Uint8Array(bankFileMaxBytes)], 'month.csv', { type: 'text/csv' }));
    await screen.findByText('month.csv', { exact: false });
    expect(read).toEqual([]);
  });

  it("says the schema's messages as the server does, in the page's language", async () => {
    i18n.activate('ko');
    render(<Page read={[]} />);
    chooseFile();
    fireEvent.click(await screen.findByRole('button', { name: '거래내역 읽기' }));
    expect(await screen.findByText('은행 계좌 이름을 입력하세요.')).toBeTruthy();
  });
});
