import { Carregando, ComCarga, Falha, Pagina, useCarga } from '../componentes.tsx';
import { reais, reaisDeCentavos } from '../dinheiro.ts';
import { nomesDoMercadoECiclo, pedidosDoMercado, todosOsPedidosDoMercado, totaisDoMercado, type PedidoDoMercado, type TotaisDoMercado } from '../fluxo-mercado.ts';
import { dataBr, deMilesimos, quantidadeComUnidade } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { CarregarMais, POR_PAGINA, usePaginado } from '../paginado.tsx';


function Totais({ totais }: { readonly totais: TotaisDoMercado }) {
  return (
    <section aria-labelledby="titulo-totais" className="totais">
      <h2 id="titulo-totais">Totais do mercado no ciclo</h2>
      <dl className="numeros">
        <div>
          <dt>Pedidos</dt>
          <dd>
            {totais.pedidos} <span className="pequeno suave">({totais.confirmados} {totais.confirmados === 1 ? 'confirmado' : 'confirmados'})</span>
          </dd>
        </div>
        <div>
          <dt>Subtotal</dt>
          <dd>{reaisDeCentavos(totais.subtotalCentavos)}</dd>
        </div>
        <div>
          <dt>Taxa</dt>
          <dd>{reaisDeCentavos(totais.taxaCentavos)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            <strong>{reaisDeCentavos(totais.totalCentavos)}</strong>
          </dd>
        </div>
      </dl>
      {totais.produtos.length === 0 ? null : (
        <table className="tabela">
          <caption>Quantidades por produto</caption>
          <thead>
            <tr>
              <th scope="col">Produto</th>
              <th scope="col" className="numero">
                Quantidade
              </th>
              <th scope="col" className="numero">
                Subtotal
              </th>
            </tr>
          </thead>
          <tbody>
            {totais.produtos.map((p) => (
              <tr key={p.chave}>
                <th scope="row">{p.nome}</th>
                <td data-rotulo="Quantidade" className="numero">
                  {quantidadeComUnidade(deMilesimos(p.quantidadeMilesimos), p.unidade)}
                </td>
                <td data-rotulo="Subtotal" className="numero">
                  {reaisDeCentavos(p.subtotalCentavos)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function CartaoPedido({ pedido }: { readonly pedido: PedidoDoMercado }) {
  const titulo = `pedido-${pedido.id}`;
  return (
    <li className="pedido" aria-labelledby={titulo}>
      <h3 id={titulo}>
        {pedido.consumidor} <span className="pequeno suave">· pedido {pedido.id}</span>
      </h3>
      <p>
        <span className={pedido.finalizado ? 'etiqueta ativo' : 'etiqueta inativo'}>{pedido.finalizado ? 'Confirmado' : 'Não confirmado'}</span>
        {pedido.finalizado && pedido.dataConfirmacao !== null ? <span className="suave pequeno"> em {dataBr(pedido.dataConfirmacao)}</span> : null}
      </p>
      <p>
        Retirada: <strong>{pedido.pontoEntrega.nome}</strong>
      </p>
      <table className="tabela linhas">
        <caption className="visualmente-oculto">Compras de {pedido.consumidor} neste mercado</caption>
        <thead>
          <tr>
            <th scope="col">Produto</th>
            <th scope="col" className="numero">
              Quantidade
            </th>
            <th scope="col" className="numero">
              Preço
            </th>
            <th scope="col" className="numero">
              Subtotal
            </th>
          </tr>
        </thead>
        <tbody>
          {pedido.produtos.map((l) => (
            <tr key={l.id}>
              <th scope="row">{l.nome}</th>
              <td data-rotulo="Quantidade" className="numero">
                {quantidadeComUnidade(l.quantidade, l.unidade)}
              </td>
              <td data-rotulo="Preço" className="numero">
                {reais(l.valor)}
              </td>
              <td data-rotulo="Subtotal" className="numero">
                {reais(l.subtotal)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="numeros">
        <div>
          <dt>Subtotal</dt>
          <dd>{reais(pedido.total)}</dd>
        </div>
        <div>
          <dt>Taxa</dt>
          <dd>{reais(pedido.taxa)}</dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>
            <strong>{reais(pedido.totalComTaxa)}</strong>
          </dd>
        </div>
      </dl>
    </li>
  );
}

/** The API refused: this person does not see this market's orders. A page that says so, not a crash. */
function Recusa({ mercadoId }: { readonly mercadoId: string }) {
  return (
    <div className="alerta" role="alert">
      <p>
        <strong>Você só pode ver os pedidos do mercado que administra.</strong>
      </p>
      <p>Os pedidos deste mercado ficam com quem o administra e com a coordenação.</p>
      <p>
        <Link para={`/mercados/${mercadoId}`}>Voltar ao mercado</Link> · <Link para="/dashboard">Ir ao painel</Link>
      </p>
    </div>
  );
}

function Pedidos({ mercadoId, cicloId }: { readonly mercadoId: string; readonly cicloId: string }) {
  const lista = usePaginado((first, after) => pedidosDoMercado(mercadoId, cicloId, first, after), (p) => p.cursor, POR_PAGINA, [mercadoId, cicloId]);
  const totais = useCarga(async () => totaisDoMercado(await todosOsPedidosDoMercado(mercadoId, cicloId)), [mercadoId, cicloId]);
  const { estado } = lista;
  if (estado.fase === 'carregando') return <Carregando texto="Carregando os pedidos…" />;
  if (estado.fase === 'erro') {
    return estado.codigo === 'FORBIDDEN' ? <Recusa mercadoId={mercadoId} /> : <Falha mensagem={estado.mensagem} tentarDeNovo={lista.recarregar} />;
  }
  if (estado.dados.length === 0) return <p className="aviso">Nenhum pedido deste mercado no ciclo até agora.</p>;
  return (
    <>
      <ComCarga estado={totais.estado} recarregar={totais.recarregar}>
        {(t) => <Totais totais={t} />}
      </ComCarga>
      <section aria-labelledby="titulo-pedidos">
        <h2 id="titulo-pedidos">Pedidos</h2>
        <p className="suave pequeno">Só o que cada pessoa comprou neste mercado, com a taxa dele.</p>
        <ul className="pedidos">
          {estado.dados.map((p) => (
            <CartaoPedido key={p.id} pedido={p} />
          ))}
        </ul>
        <CarregarMais estado={estado} carregarMais={lista.carregarMais} rotulo="Carregar mais pedidos" />
      </section>
    </>
  );
}

/** /mercados/:id/ciclos/:cicloId/pedidos: a market's orders in a cycle, with the totals (pedidosDoMercado; the API decides who sees them). */
export function PedidosDoMercado({ mercadoId, cicloId }: { readonly mercadoId: string; readonly cicloId: string }) {
  const { estado, recarregar } = useCarga(() => nomesDoMercadoECiclo(mercadoId, cicloId), [mercadoId, cicloId]);
  const titulo = estado.fase === 'pronto' && estado.dados.mercado !== null ? `Pedidos · ${estado.dados.mercado}` : 'Pedidos do mercado';
  return (
    <Pagina titulo={titulo}>
      <p>
        <Link para={`/mercados/${mercadoId}`}>← Voltar ao mercado</Link>
      </p>
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ mercado, ciclo }) =>
          mercado === null || ciclo === null ? (
            <div className="alerta" role="alert">
              <p>{mercado === null ? 'Mercado não encontrado.' : 'Ciclo não encontrado.'}</p>
            </div>
          ) : (
            <>
              <p>
                Ciclo <strong>{ciclo.nome}</strong> · retirada de {dataBr(ciclo.dataRetiradaInicio)} a {dataBr(ciclo.dataRetiradaFim)}
              </p>
              <Pedidos mercadoId={mercadoId} cicloId={cicloId} />
            </>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
