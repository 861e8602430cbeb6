import { Fragment } from 'react';
import { AvisoComTitulo, Pagina } from '../componentes.tsx';
import { nomeDoTipo } from '../tipos-de-mercado.ts';
import { NOMES_FASES } from '../ciclo-comum.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import { type ResumoCiclo } from '../fluxo-consumidor.ts';
import { dataBr } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { ListaPaginada, POR_PAGINA, usePaginado } from '../paginado.tsx';
import { Ponto, taxaLegivel } from '../pedido-comum.tsx';

/** The order link says where the person's order stands: none yet, to confirm (again), or confirmed. */
function rotuloDoPedido(ciclo: ResumoCiclo): string {
  const p = ciclo.meuPedido;
  if (p === null) return 'Fazer pedido';
  if (p.finalizado) return 'Pedido confirmado';
  if (!ciclo.acoes.pedir) return 'Ver pedido';
  return p.alteradoAposConfirmar ? 'Confirmar de novo' : 'Confirmar pedido';
}

function CartaoCiclo({ ciclo }: { readonly ciclo: ResumoCiclo }) {
  const id = `ciclo-${ciclo.id}`;
  const janelas: ReadonlyArray<readonly [string, string, string, boolean]> = [
    ['Ofertas', ciclo.dataOfertaInicio, ciclo.dataOfertaFim, ciclo.janelasAbertas.includes('oferta')],
    ['Pedidos', ciclo.dataPedidoInicio, ciclo.dataPedidoFim, ciclo.janelasAbertas.includes('pedido')],
    ['Retirada', ciclo.dataRetiradaInicio, ciclo.dataRetiradaFim, false],
  ];
  const links: ReadonlyArray<readonly [string, string, boolean]> = [
    // With an order, its page is there to see it even when the window no longer lets it change.
    [rotuloDoPedido(ciclo), `/ciclos/${ciclo.id}/pedido`, ciclo.acoes.pedir || ciclo.meuPedido !== null],
    ['Ofertar', `/ciclos/${ciclo.id}/oferta`, ciclo.acoes.ofertar],
    ['Minhas entregas', `/ciclos/${ciclo.id}/entregas`, ciclo.acoes.ofertar],
    ['Mercados do ciclo', `/ciclos/${ciclo.id}/mercados`, ciclo.acoes.definirMercados],
  ];
  return (
    <li className="ciclo">
      <article aria-labelledby={`${id}-nome`}>
        <h2 id={`${id}-nome`}>
          {ciclo.nome} <span className="etiqueta fase">{NOMES_FASES[ciclo.fase]}</span>
        </h2>
        <dl className="ficha janelas">
          {janelas.map(([nome, inicio, fim, aberta]) => (
            <Fragment key={nome}>
              <dt>{nome}</dt>
              <dd>
                {inicio === fim ? dataBr(inicio) : `${dataBr(inicio)} a ${dataBr(fim)}`}{' '}
                {aberta ? <span className="etiqueta ativo">aberta</span> : null}
              </dd>
            </Fragment>
          ))}
        </dl>
        <h3>Mercados</h3>
        {ciclo.mercados.length === 0 ? (
          <p className="suave">Este ciclo funciona sem mercados: a taxa é a da comunidade.</p>
        ) : (
          <ul className="lista-simples">
            {ciclo.mercados.map((m) => (
              <li key={m.mercadoId}>
                <strong>{m.nome}</strong> · {nomeDoTipo(m.tipo)} · {taxaLegivel(m.taxaAdministrativa)}
              </li>
            ))}
          </ul>
        )}
        <h3>Pontos de retirada</h3>
        {ciclo.pontosEntrega.length === 0 ? (
          <p className="suave">Ainda sem pontos de retirada definidos.</p>
        ) : (
          <ul className="lista-simples">
            {ciclo.pontosEntrega.map((p) => (
              <li key={p.id}>
                <Ponto ponto={p} />
              </li>
            ))}
          </ul>
        )}
        {links.some(([, , pode]) => pode) ? (
          <p className="acoes">
            {links
              .filter(([, , pode]) => pode)
              .map(([nome, para], i) => (
                <Link
                  key={para}
                  para={para}
                  className={i === 0 ? 'botao' : 'botao secundario'}
                  aria-describedby={`${id}-nome`}
                >
                  {nome}
                </Link>
              ))}
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** /ciclos: the cycles the person can act in now, each with its windows, markets, pickup points and what they may do there. */
export function Ciclos() {
  const pagina = usePaginado(PRIMEIRAS.ciclos.ler, (c) => c.id, POR_PAGINA, []);
  return (
    <Pagina titulo="Ciclos">
      <ListaPaginada
        pagina={pagina}
        rotulo="Carregar mais ciclos"
        vazio={
          <AvisoComTitulo titulo="Nenhum ciclo aberto para você agora.">
            Os ciclos aparecem aqui quando abre uma janela em que você pode agir: a de pedidos, para quem compra; a de
            ofertas, para quem fornece. A coordenação avisa por e-mail quando o período de pedidos abre.
          </AvisoComTitulo>
        }
      >
        {(ciclos) => (
          <ul className="lista-ciclos" aria-label="Ciclos">
            {ciclos.map((c) => (
              <CartaoCiclo key={c.id} ciclo={c} />
            ))}
          </ul>
        )}
      </ListaPaginada>
    </Pagina>
  );
}
