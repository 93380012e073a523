import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { Settings } from '../../../../shared/schemas/settings.ts';
import { apiAddress } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { BusinessSection } from './business-section.tsx';
import { MoneySection } from './money-section.tsx';
import { AccountLanguage } from './account-language.tsx';
import { Section } from '../../../components/settings-card.tsx';
import { Switch, useSaveSection } from './settings-section.tsx';

function RegistrationSection({ allowRegistration }: { allowRegistration: boolean }) {
  const { t } = useI18n();
  const saveSection = useSaveSection();
  const { register, handleSubmit, formState } = useForm<{ allowRegistration: boolean }>({
    defaultValues: { allowRegistration },
  });
  const submit = handleSubmit((values) => saveSection(values));
  return (
    <Section title={t('settings.registration')} help={t('settings.registration-help')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Switch
          id="allow-registration"
          label={t('settings.allow-registration')}
          help={t('settings.allow-registration-help')}
          field={register('allowRegistration')}
        />
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {t('settings.save-registration')}
        </button>
      </form>
    </Section>
  );
}

/**
 * The Settings screen, in sections that each save on their own: the business, money and rates,
 * registration (the administrator's), the owner's data, and API tokens.
 */
export function SettingsForm({
  settings,
  reminderPlan,
  yourData,
  people,
  closedPeriods,
}: {
  settings: Settings;
  /** The reminders feature's section, placed by the page after money and rates. */
  reminderPlan: ReactNode;
  /** The transfer feature's downloads and restore, in the section about the owner's data. */
  yourData: ReactNode;
  /** The books feature's People (an owner's): who keeps the book, and inviting someone. */
  people?: ReactNode;
  /** The books feature's lock date (an owner's): the period closed to every change. */
  closedPeriods?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9 col-xl-8">
        <h1 className="mb-3">{t('settings.title')}</h1>
        <BusinessSection business={settings.business} />
        <MoneySection settings={settings} />
        {reminderPlan}
        {settings.allowRegistration !== null && (
          <RegistrationSection allowRegistration={settings.allowRegistration} />
        )}
        {people}
        {closedPeriods}
        <Section title={t('settings.your-data')} help={t('settings.your-data-help')}>
          {yourData}
        </Section>
        <ApiSection />
      </div>
    </div>
  );
}

function ApiSection() {
  const { t } = useI18n();
  return (
    <Section title={t('settings.api')} help={t('settings.api-help')}>
      <div className="d-flex flex-wrap gap-2">
        <Link className="btn btn-outline-secondary btn-sm" to="/account/tokens">
          {t('settings.api-tokens')}
        </Link>
        <a className="btn btn-outline-secondary btn-sm" href={apiAddress(apiRoutes.apiDocs)}>
          {t('settings.api-reference')}
        </a>
      </div>
    </Section>
  );
}

/**
 * Settings for a member who does not keep the book (a viewer, a collector): the book's settings
 * are its keepers', so only what is the person's own is here, their language and API tokens.
 */
export function PersonalSettings() {
  const { t } = useI18n();
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9 col-xl-8">
        <h1 className="mb-3">{t('settings.title')}</h1>
        <p className="text-body-secondary">{t('settings.kept-by-others')}</p>
        <Section title={t('settings.personal')} help={t('settings.personal-help')}>
          <AccountLanguage />
        </Section>
        <ApiSection />
      </div>
    </div>
  );
}
