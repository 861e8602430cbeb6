/**
 * The pickup app (/retirada): an installable app for the pickup point that works with no network
 * after one online visit. Its service worker (sw.js, built by vite-plugin-pwa) keeps the shell and
 * the code; the data and the actions live in IndexedDB (loja.ts).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import '../mercados/estilo.css';
import './estilo.css';

if ('serviceWorker' in navigator) {
  // Scoped to the app: the rest of the Mercados face keeps working as a plain site.
  navigator.serviceWorker.register('/retirada/sw.js', { scope: '/retirada' }).catch((e: unknown) => {
    console.warn('a retirada não pôde instalar o service worker: sem ele, ela não abre sem rede', e);
  });
}
// The data of a pickup in progress must not be evicted when the phone runs short of space.
void navigator.storage?.persist?.().catch(() => false);

const raiz = document.getElementById('raiz');
if (raiz === null) throw new Error('a página não tem o elemento #raiz');
createRoot(raiz).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
