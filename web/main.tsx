import '@fontsource-variable/inter';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from '#web/app/app';
import { meQueryOptions } from '#web/lib/auth/get-me';
import { createQueryClient } from '#web/lib/query-client';

// The page's Content-Security-Policy forbids eval: tell zod not to probe for it (each probe is a
// reported policy violation) and to validate without compiled code.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('Elemento #root não encontrado em index.html');

// index.html preloads /api/auth/me, so the session usually answers before this script has run: wait for
// it a moment, and a visitor's first frame is the page itself rather than 'Carregando...' replaced by
// the page one render later. A slow answer still gets the loader after FIRST_RENDER_WAIT_MS.
const FIRST_RENDER_WAIT_MS = 100;
const queryClient = createQueryClient();
// (No top-level await: it would make the bundler split the entry into dozens of files.)
void Promise.race([
  queryClient.prefetchQuery(meQueryOptions()),
  new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS)),
]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
