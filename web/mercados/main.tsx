/** The Mercados browser client: one page per address, over the face's GraphQL API. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ProvedorSessao } from './sessao.tsx';
import './estilo.css';

const raiz = document.getElementById('raiz');
if (raiz === null) throw new Error('a página não tem o elemento #raiz');
createRoot(raiz).render(
  <StrictMode>
    <ProvedorSessao>
      <App />
    </ProvedorSessao>
  </StrictMode>,
);
