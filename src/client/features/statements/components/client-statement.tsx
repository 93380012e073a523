import { useState } from 'react';
import { ArrowLeft, FileDown, FileSpreadsheet, Printer, Send } from 'lucide-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { statementFilePath, useStatement } from '../api/statement.ts';
import { ClientNotFound } from '../../../components/client-not-found.tsx';
import { PeriodPicker, usePeriod } from './period-picker.tsx';
import { SendStatement } from './send-statement.tsx';
import { StatementBody } from './statement-body.tsx';

/** /client/:id/statement: the statement of a period, to print, download or send. */
export function ClientStatement({ id }: { id: string }) {
  const [period, setPeriod] = usePeriod();
  const statement = useStatement(id, period);
  const [sending, setSending] = useState(false);
  const { t } = useI18n();
  const maySend = useBookAccess()(apiRoutes.sendStatement.access);
  useDocumentTitle(
    statement.data
      ? t('statement.title.client', {
          firstName: statement.data.client.firstName,
          lastName: statement.data.client.lastName,
        })
      : t('statement.title'),
  );

  if (statement.isPending) return <PageLoading />;
  if (statement.isError) {
    if (statement.error instanceof ApiError && statement.error.status === 404)
      return <ClientNotFound />;
    return <PageLoadError error={statement.error} onRetry={() => void statement.refetch()} />;
  }
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3 no-print">
          <Link to={`/client/${id}`} className="d-inline-flex align-items-center gap-1">
            <ArrowLeft size={16} className="icon" aria-hidden />
            {t('statement.back')}
          </Link>
          <div className="d-flex flex-wrap gap-2">
            <a
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              href={statementFilePath(id, period, 'pdf')}
              download
            >
              <FileDown size={14} className="icon" aria-hidden />
              {t('statement.download-pdf')}
            </a>
            <a
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              href={statementFilePath(id, period, 'csv')}
              download
            >
              <FileSpreadsheet size={14} className="icon" aria-hidden />
              {t('statement.download-csv')}
            </a>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              onClick={() => window.print()}
            >
              <Printer size={14} className="icon" aria-hidden />
              {t('statement.print')}
            </button>
            {maySend && (
              <button
                type="button"
                className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
                aria-expanded={sending}
                onClick={() => setSending((open) => !open)}
              >
                <Send size={14} className="icon" aria-hidden />
                {t('statement.send.open')}
              </button>
            )}
          </div>
        </div>
        <PeriodPicker key={`${period.from}/${period.to}`} period={period} onChange={setPeriod} />
        {sending && maySend && (
          <SendStatement statement={statement.data} onClose={() => setSending(false)} />
        )}
        <StatementBody statement={statement.data} />
      </div>
    </div>
  );
}
