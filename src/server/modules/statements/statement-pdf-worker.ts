// Laying out a PDF takes too long for the thread that answers requests (decision 019).
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { answerJobs } from '../../worker-pool.ts';
import { statementPdf } from './statement-pdf.ts';

export type PdfRequest = { statement: Statement; locale: Locale };

answerJobs(async ({ statement, locale }: PdfRequest) => ({
  result: await statementPdf(statement, locale),
}));
