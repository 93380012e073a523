// Laying out a PDF takes too long for the thread that answers requests (decision 019), and the
// memory it takes is not given back while the server lives (decision 037): it runs in a child
// process of its own, whose memory goes back to the system when it ends.
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { answerJobs } from '../../worker-pool.ts';
import { statementPdf } from './statement-pdf.ts';

export type PdfRequest = { statement: Statement; locale: Locale };

answerJobs(async ({ statement, locale }: PdfRequest) => ({
  result: await statementPdf(statement, locale),
}));
