// A statement a person sends is read here, not on the thread that answers requests: its 5.6 MB
// of JSON parsed, its base64 checked and decoded and the file read took that thread 80-100 ms an
// upload in blocks no other request could come between (decision 036).
import type { Currency } from '../../../shared/money.ts';
import { bankPreviewBodySchema } from '../../../shared/schemas/bank.ts';
import { AppError, invalidBody } from '../../errors.ts';
import { checkJsonShape } from '../../json-shape.ts';
import { answerJobs } from '../../worker-pool.ts';
import { parseJsonWhole } from '../transfer/chunked-json-body.ts';
import { readStatement } from './bank-formats.ts';
import type { ParsedStatement } from './bank-statement.ts';

/** The preview's JSON body as it arrived, or nothing (no body was sent). */
export type PreviewBody = unknown;

export interface PreviewRead {
  accountLabel: string;
  currency: Currency;
  statement: ParsedStatement & { twins: number };
}

answerJobs(async (body: PreviewBody): Promise<{ result: PreviewRead }> => {
  // The limits every JSON body has (json-shape.ts), which the route left to this thread.
  if (!(body instanceof Uint8Array))
    throw new AppError(400, 'validation', 'The request body is not valid JSON');
  checkJsonShape(body);
  const parsed = bankPreviewBodySchema.safeParse(await parseJsonWhole(body));
  if (!parsed.success) throw invalidBody(parsed.error.issues);
  const { accountLabel, currency, format, mapping, file } = parsed.data;
  const statement = await readStatement(Buffer.from(file, 'base64'), format, mapping, currency);
  return { result: { accountLabel, currency, statement } };
});
