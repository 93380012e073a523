import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { displayName } from '../../../../shared/names.ts';
import type { BankRule } from '../../../../shared/schemas/bank.ts';
import { useFlash } from '../../../components/flash.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useForgetPayerRule, usePayerRules } from '../api/payer-rules.ts';

/**
 * The payers the owner has confirmed, each with a Forget button: the learned rules of decision
 * 030, read from GET /api/bank/rules.
 */
export function PayerRules() {
  const { t } = useI18n();
  const rules = usePayerRules();
  const forget = useForgetPayerRule();
  const showFlash = useFlash();
  if (rules.isError)
    return (
      <PayerRulesFrame>
        <p className="text-danger mb-0">{t('bank-rules.load-failed')}</p>
      </PayerRulesFrame>
    );
  if (!rules.data)
    return (
      <PayerRulesFrame>
        <p className="text-body-secondary mb-0">{t('bank-rules.loading')}</p>
      </PayerRulesFrame>
    );
  return (
    <PayerRulesCard
      rules={rules.data.rules}
      forget={async (rule) => {
        try {
          await forget.mutateAsync(rule.id);
          showFlash(t('bank-rules.forgotten', { payer: rule.payerKey }), 'success');
          return true;
        } catch {
          showFlash(t('bank-rules.forget-failed'), 'danger');
          return false;
        }
      }}
    />
  );
}

function PayerRulesFrame({
  children,
  headingRef,
}: {
  children: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useI18n();
  return (
    <section className="card mb-4" aria-labelledby="bank-rules-heading">
      <div className="card-header">
        <h2 id="bank-rules-heading" className="h6 mb-0" tabIndex={-1} ref={headingRef}>
          {t('bank-rules.heading')}
        </h2>
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}

/** The list itself: `forget` answers whether the payer was forgotten. */
export function PayerRulesCard({
  rules,
  forget,
}: {
  rules: readonly BankRule[];
  forget: (rule: BankRule) => Promise<boolean>;
}) {
  const { t, format } = useI18n();
  const [forgetting, setForgetting] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);

  // The button pressed goes with its payer: the keyboard goes on from the next payer's button
  // (or the one before, or the heading), once the list is drawn again with the buttons enabled.
  const focusNext = useRef<{ id: string | null } | null>(null);
  useEffect(() => {
    if (!focusNext.current || forgetting !== null) return;
    const next = list.current?.querySelector<HTMLButtonElement>(
      `button[data-rule="${CSS.escape(focusNext.current.id ?? '')}"]`,
    );
    focusNext.current = null;
    (next ?? heading.current)?.focus();
  }, [forgetting]);

  const forgetOne = async (rule: BankRule, index: number) => {
    setForgetting(rule.id);
    if (await forget(rule))
      focusNext.current = { id: (rules[index + 1] ?? rules[index - 1])?.id ?? null };
    setForgetting(null);
  };

  return (
    <PayerRulesFrame headingRef={heading}>
      <p className="small text-body-secondary">{t('bank-rules.intro')}</p>
      {rules.length === 0 ? (
        <p className="mb-0">{t('bank-rules.empty')}</p>
      ) : (
        <ul ref={list} className="list-group" aria-label={t('bank-rules.list')}>
          {rules.map((rule, index) => (
            <li
              key={rule.id}
              className="list-group-item d-flex align-items-center justify-content-between gap-2"
              data-testid="payer-rule"
            >
              <div className="text-break">
                <span className="fw-semibold font-monospace">{rule.payerKey}</span>
                <span className="d-block small text-body-secondary">
                  {rule.client === null
                    ? t('bank-rules.nobody')
                    : t('bank-rules.pays-for', { client: displayName(rule.client) })}
                  {' · '}
                  {rule.learned.accountLabel === null
                    ? t('bank-rules.updated', { when: format.moment(rule.updatedAt) })
                    : t('bank-rules.learned', {
                        when: format.moment(rule.learned.at),
                        account: rule.learned.accountLabel,
                        line: rule.learned.line ?? 0,
                      })}
                </span>
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                aria-label={t('bank-rules.forget-named', { payer: rule.payerKey })}
                data-rule={rule.id}
                disabled={forgetting !== null}
                onClick={() => void forgetOne(rule, index)}
              >
                {t('bank-rules.forget')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </PayerRulesFrame>
  );
}
