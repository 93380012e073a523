import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { FlashProvider } from '../components/flash.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { AppRoutes } from './router.tsx';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <FlashProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </FlashProvider>
    </QueryClientProvider>
  );
}
