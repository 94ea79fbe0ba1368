import '@fontsource-variable/inter';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/app';

// The page's Content-Security-Policy forbids eval: tell zod not to probe for it (each probe is a
// reported policy violation) and to validate without compiled code.
z.config({ jitless: true });

const root = document.getElementById('root');
if (!root) throw new Error('Elemento #root não encontrado em index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
