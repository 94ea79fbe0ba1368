import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useToasts } from '#web/components/ui/use-toast';
import { watchSessionEnd } from '#web/features/auth/session-end';

// The toast area (Radix Toast) loads with the first toast, so pages that never toast (the landing
// page's first view) do not ship it.
const Toaster = lazy(() => import('#web/components/ui/toaster').then((m) => ({ default: m.Toaster })));

function LazyToaster() {
  const [needed, setNeeded] = useState(false);
  const hasToast = useToasts().length > 0;
  useEffect(() => {
    if (hasToast) setNeeded(true);
  }, [hasToast]);
  return needed || hasToast ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  useEffect(() => watchSessionEnd(queryClient), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <LazyToaster />
    </QueryClientProvider>
  );
}
