import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from 'sonner';
import { queryClient } from '@/lib/query-client';
import { router } from './router';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {/* at the bottom: on a phone a toast at the top covers the header and the page title (the live region is the same) */}
      <Toaster
        position="bottom-right"
        offset={24}
        mobileOffset={{ bottom: 16, left: 16, right: 16 }}
        closeButton
        containerAriaLabel="Notifiche"
        toastOptions={{ duration: 5000 }}
      />
    </QueryClientProvider>
  );
}
