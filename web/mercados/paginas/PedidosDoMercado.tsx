import { Baixar, Carregando, ComCarga, Falha, Pagina, useCarga } from '../componentes.tsx';
import { reais, reaisDeCentavos } from '../dinheiro.ts';
import {
  nomesDoMercadoECiclo,
  pedidosDoMercado,
  todosOsPedidosDoMercado,
  totaisDoMercado,
  type PedidoDoMercado,
  type TotaisDoMercado,
} from '../fluxo-mercado.ts';
import { dataBr, deMilesimos, quantidadeComUnidade } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { CarregarMais, POR_PAGINA, usePaginado } from '../paginado.tsx';
import { SubtotalTaxaTotal, TabelaDeLinhas } from '../tabela.tsx';

function Totais({ totais }: { readonly totais: TotaisDoMercado }) {
  return (
    <section aria-labelledby="titulo-totais" className="totais">
      <h2 id="titulo-totais">Totais do mercado no ciclo</h2>
      <dl className="numeros">
        <div>
          <dt>Pedidos</dt>
          <dd>
            {totais.pedidos}{' '}
            <span className="pequeno suave">
              ({totais.confirmados} {totais.confirmados === 1 ? 'confirmado' : 'confirmados'})
            </span>
          </dd>
        </div>
        <SubtotalTaxaTotal
          subtotal={reaisDeCentavos(totais.subtotalCentavos)}
          taxa={reaisDeCentavos(totais.taxaCentavos)}
          total={reaisDeCentavos(totais.totalCentavos)}
        />
      </dl>
      {totais.produtos.length === 0 ? null : (
        <TabelaDeLinhas
          className="tabela"
          legenda="Quantidades por produto"
          linhas={totais.produtos}
          chave={(p) => p.chave}
          primeira={{ titulo: 'Produto', celula: (p) => p.nome }}
          colunas={[
            {
              titulo: 'Quantidade',
              celula: (p) => quantidadeComUnidade(deMilesimos(p.quantidadeMilesimos), p.unidade),
            },
            { titulo: 'Subtotal', celula: (p) => reaisDeCentavos(p.subtotalCentavos) },
          ]}
        />
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
        <span className={pedido.finalizado ? 'etiqueta ativo' : 'etiqueta inativo'}>
          {pedido.finalizado ? 'Confirmado' : 'Não confirmado'}
        </span>
        {pedido.finalizado && pedido.dataConfirmacao !== null ? (
          <span className="suave pequeno"> em {dataBr(pedido.dataConfirmacao)}</span>
        ) : null}
      </p>
      <p>
        Retirada: <strong>{pedido.pontoEntrega.nome}</strong>
      </p>
      <TabelaDeLinhas
        className="tabela linhas"
        legenda={`Compras de ${pedido.consumidor} neste mercado`}
        legendaOculta
        linhas={pedido.produtos}
        chave={(l) => l.id}
        primeira={{ titulo: 'Produto', celula: (l) => l.nome }}
        colunas={[
          { titulo: 'Quantidade', celula: (l) => quantidadeComUnidade(l.quantidade, l.unidade) },
          { titulo: 'Preço', celula: (l) => reais(l.valor) },
          { titulo: 'Subtotal', celula: (l) => reais(l.subtotal) },
        ]}
      />
      <dl className="numeros">
        <SubtotalTaxaTotal
          subtotal={reais(pedido.total)}
          taxa={reais(pedido.taxa)}
          total={reais(pedido.totalComTaxa)}
        />
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
  const lista = usePaginado(
    (first, after) => pedidosDoMercado(mercadoId, cicloId, first, after),
    (p) => p.cursor,
    POR_PAGINA,
    [mercadoId, cicloId],
  );
  const totais = useCarga(
    async () => totaisDoMercado(await todosOsPedidosDoMercado(mercadoId, cicloId)),
    [mercadoId, cicloId],
  );
  const { estado } = lista;
  if (estado.fase === 'carregando') return <Carregando texto="Carregando os pedidos…" />;
  if (estado.fase === 'erro') {
    return estado.codigo === 'FORBIDDEN' ? (
      <Recusa mercadoId={mercadoId} />
    ) : (
      <Falha mensagem={estado.mensagem} tentarDeNovo={lista.recarregar} />
    );
  }
  if (estado.dados.length === 0) return <p className="aviso">Nenhum pedido deste mercado no ciclo até agora.</p>;
  return (
    <>
      <Baixar
        endereco={`/planilhas/mercados/${mercadoId}/pedidos?cicloId=${cicloId}`}
        rotulo="Baixar todos os pedidos"
      />
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
  const titulo =
    estado.fase === 'pronto' && estado.dados.mercado !== null
      ? `Pedidos · ${estado.dados.mercado}`
      : 'Pedidos do mercado';
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
                Ciclo <strong>{ciclo.nome}</strong> · retirada de {dataBr(ciclo.dataRetiradaInicio)} a{' '}
                {dataBr(ciclo.dataRetiradaFim)}
              </p>
              <Pedidos mercadoId={mercadoId} cicloId={cicloId} />
            </>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
