import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { currentLocale, loadLocale } from '../i18n/i18n.ts';
import { loadChunk } from '../lib/load-chunk.ts';
import { Layout } from './layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { DashboardPage } from './routes/dashboard.tsx';
import { NotFoundPage } from './routes/not-found.tsx';

/** A page whose code loads the first time it is shown (the layout shows a spinner meanwhile). */
function lazyPage(load: () => Promise<ComponentType>) {
  return lazy<ComponentType>(async () => {
    // A page's texts come with it: those of the current language, fetched alongside its code.
    const [page] = await Promise.all([
      loadChunk(load),
      loadChunk(() => loadLocale(currentLocale())),
    ]);
    return { default: page };
  });
}

// Pages other than the dashboard load on demand, so the first page stays small.
const LoginPage = lazyPage(async () => (await import('./routes/login.tsx')).LoginPage);
const JoinPage = lazyPage(async () => (await import('./routes/join.tsx')).JoinPage);
const ClientAddPage = lazyPage(async () => (await import('./routes/client-add.tsx')).ClientAddPage);
const ClientEditPage = lazyPage(
  async () => (await import('./routes/client-edit.tsx')).ClientEditPage,
);
const ClientImportPage = lazyPage(
  async () => (await import('./routes/client-import.tsx')).ClientImportPage,
);
const BankPage = lazyPage(async () => (await import('./routes/bank.tsx')).BankPage);
const SetupPage = lazyPage(async () => (await import('./routes/setup.tsx')).SetupPage);
const SettingsPage = lazyPage(async () => (await import('./routes/settings.tsx')).SettingsPage);
const AccountTokensPage = lazyPage(
  async () => (await import('./routes/account-tokens.tsx')).AccountTokensPage,
);
const ClientStatementPage = lazyPage(
  async () => (await import('./routes/client-statement.tsx')).ClientStatementPage,
);
const AccountPage = lazyPage(async () => (await import('./routes/account.tsx')).AccountPage);
const AdminUsersPage = lazyPage(
  async () => (await import('./routes/admin-users.tsx')).AdminUsersPage,
);
const ResetPasswordPage = lazyPage(
  async () => (await import('./routes/reset-password.tsx')).ResetPasswordPage,
);
const InvitationPage = lazyPage(
  async () => (await import('./routes/invitation.tsx')).InvitationPage,
);
const BookActivityPage = lazyPage(
  async () => (await import('./routes/book-activity.tsx')).BookActivityPage,
);
const ClientDetailsPage = lazyPage(
  async () => (await import('./routes/client-details.tsx')).ClientDetailsPage,
);

/**
 * The screens by path. React Router's declarative routes, not its data router: the app loads
 * its data with TanStack Query and uses none of the router's loaders or actions, and the data
 * router alone was about 17 KB gzipped of the first page's JavaScript.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<DashboardPage />} />
        <Route path="login" element={<LoginPage />} />
        <Route path="join" element={<JoinPage />} />
        <Route path="reset-password/:token" element={<ResetPasswordPage />} />
        <Route path="invitation/:token" element={<InvitationPage />} />
        <Route element={<RequireAuth />}>
          <Route path="client/add" element={<ClientAddPage />} />
          <Route path="client/edit/:id" element={<ClientEditPage />} />
          <Route path="client/import" element={<ClientImportPage />} />
          <Route path="bank" element={<BankPage />} />
          <Route path="setup" element={<SetupPage />} />
          <Route path="setting" element={<SettingsPage />} />
          <Route path="setting/activity" element={<BookActivityPage />} />
          <Route path="account/tokens" element={<AccountTokensPage />} />
          <Route path="account" element={<AccountPage />} />
          <Route path="admin/users" element={<AdminUsersPage />} />
          <Route path="client/:id" element={<ClientDetailsPage />} />
          <Route path="client/:id/statement" element={<ClientStatementPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
