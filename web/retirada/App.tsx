/**
 * The pickup app's addresses: /retirada (the points the person may work at), the point's page
 * /retirada/:cicloId/:pontoId and an order opened, /retirada/:cicloId/:pontoId/pedido/:pedidoId.
 * The point's state lives above its two pages, so going from the list to an order and back keeps
 * the search, the scroll and the queue in memory.
 */
import type { ReactNode } from 'react';
import { casar, useEndereco } from '../mercados/navegacao.tsx';
import { ListaDePontos } from './pontos.tsx';
import { PaginaDoPonto } from './ponto.tsx';
import { useConexao } from './sincronia.ts';

function Moldura({ children }: { readonly children: ReactNode }) {
  // Offline, the rest of the face cannot open: no link leads there.
  const online = useConexao();
  return (
    <>
      <a className="pular" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="topo">
        <a href="/retirada" className="marca">
          Cestaria · Retirada
        </a>
        {online ? (
          <nav aria-label="Principal">
            <ul>
              <li>
                <a href="/dashboard">Painel do Mercados</a>
              </li>
            </ul>
          </nav>
        ) : null}
      </header>
      <main id="conteudo" className="retirada">
        {children}
      </main>
    </>
  );
}

export function App() {
  const { caminho } = useEndereco();
  const pedido = casar('/retirada/:cicloId/:pontoId/pedido/:pedidoId', caminho);
  const ponto = pedido ?? casar('/retirada/:cicloId/:pontoId', caminho);
  let conteudo: ReactNode;
  if (ponto !== null) {
    const { cicloId = '', pontoId = '' } = ponto;
    conteudo = (
      <PaginaDoPonto
        key={`${cicloId}/${pontoId}`}
        cicloId={cicloId}
        pontoId={pontoId}
        pedidoId={pedido?.pedidoId ?? null}
      />
    );
  } else if (casar('/retirada', caminho) !== null) conteudo = <ListaDePontos />;
  else
    conteudo = (
      <>
        <h1>Página não encontrada</h1>
        <p>
          <a href="/retirada">Ver os pontos de retirada</a>
        </p>
      </>
    );
  return <Moldura>{conteudo}</Moldura>;
}
