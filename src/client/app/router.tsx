import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './layout.tsx';
import { DashboardPage } from './routes/dashboard.tsx';
import { NotFoundPage } from './routes/not-found.tsx';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <DashboardPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
