import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { DashboardPage } from './routes/dashboard.tsx';
import { NotFoundPage } from './routes/not-found.tsx';

// Pages other than the dashboard load on demand, so the first page stays small.
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <DashboardPage /> },
      {
        path: 'login',
        lazy: async () => ({ Component: (await import('./routes/login.tsx')).LoginPage }),
      },
      {
        path: 'join',
        lazy: async () => ({ Component: (await import('./routes/join.tsx')).JoinPage }),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'client/add',
            lazy: async () => ({
              Component: (await import('./routes/client-add.tsx')).ClientAddPage,
            }),
          },
          {
            path: 'client/edit/:id',
            lazy: async () => ({
              Component: (await import('./routes/client-edit.tsx')).ClientEditPage,
            }),
          },
          {
            path: 'client/import',
            lazy: async () => ({
              Component: (await import('./routes/client-import.tsx')).ClientImportPage,
            }),
          },
          {
            path: 'setting',
            lazy: async () => ({ Component: (await import('./routes/settings.tsx')).SettingsPage }),
          },
          {
            path: 'client/:id',
            lazy: async () => ({
              Component: (await import('./routes/client-details.tsx')).ClientDetailsPage,
            }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
