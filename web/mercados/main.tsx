/** The Mercados browser client: one page per address, over the face's GraphQL API. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, adiantarPagina } from './App.tsx';
import { ProvedorSessao } from './sessao.tsx';
import './estilo.css';

// The page's code and first query start now, beside the session check, not after it.
adiantarPagina(window.location.pathname);
const raiz = document.getElementById('raiz');
if (raiz === null) throw new Error('a página não tem o elemento #raiz');
createRoot(raiz).render(
  <StrictMode>
    <ProvedorSessao>
      <App />
    </ProvedorSessao>
  </StrictMode>,
);
