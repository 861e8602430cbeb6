import { Aviso, Baixar, ComCarga, DiasDeEntrega, Falha, Pagina, useCarga } from '../componentes.tsx';
import { deCentavos, paraCentavos, reais } from '../dinheiro.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import { type CicloResumo, type Entrega } from '../fluxo-fornecedor.ts';
import { dataBr, paraMilesimos, quantidadeComUnidade, valorDaQuantidade } from '../formatos.ts';
import { Link } from '../navegacao.tsx';

const FORA = 'Fora de mercados';

/** What one market takes of the supplier: its products, each with the quantity and value ordered. */
interface NoMercado {
  readonly chave: string;
  readonly nome: string;
  readonly itens: ReadonlyArray<{ readonly entrega: Entrega; readonly pedido: string; readonly valorPedido: string }>;
  readonly totalCentavos: number;
}

const centavos = (v: string): number => paraCentavos(v) ?? 0;
const valorPlanejado = (e: Entrega): number => valorDaQuantidade(centavos(e.valor), paraMilesimos(e.planejado) ?? 0);

function porMercado(entregas: readonly Entrega[]): NoMercado[] {
  const por = new Map<string, { nome: string; itens: Array<NoMercado['itens'][number]> }>();
  for (const e of entregas) {
    for (const m of e.mercados) {
      const chave = m.mercadoId ?? 'fora';
      const grupo = por.get(chave) ?? { nome: m.mercado ?? FORA, itens: [] };
      grupo.itens.push({ entrega: e, pedido: m.pedido, valorPedido: m.valorPedido });
      por.set(chave, grupo);
    }
  }
  // The API lists markets by name with outside markets last; the groups follow it.
  return [...por.entries()]
    .map(([chave, g]) => ({
      chave,
      nome: g.nome,
      itens: g.itens,
      totalCentavos: g.itens.reduce((s, i) => s + centavos(i.valorPedido), 0),
    }))
    .sort(
      (a, b) => (a.chave === 'fora' ? 1 : 0) - (b.chave === 'fora' ? 1 : 0) || a.nome.localeCompare(b.nome, 'pt-BR'),
    );
}

function Resumo({ entregas }: { readonly entregas: readonly Entrega[] }) {
  const pedido = entregas.reduce((s, e) => s + centavos(e.valorPedido), 0);
  const planejado = entregas.reduce((s, e) => s + valorPlanejado(e), 0);
  return (
    <dl className="ficha totais-entrega">
      <dt>Pedido (a entregar)</dt>
      <dd>
        <strong>{reais(deCentavos(pedido))}</strong>
      </dd>
      <dt>Planejado</dt>
      <dd>{reais(deCentavos(planejado))}</dd>
      <dt>Produtos</dt>
      <dd>{entregas.length}</dd>
    </dl>
  );
}

function PorProduto({ entregas }: { readonly entregas: readonly Entrega[] }) {
  const total = entregas.reduce((s, e) => s + centavos(e.valorPedido), 0);
  return (
    <table className="tabela entregas">
      <caption className="visualmente-oculto">O que entregar, por produto</caption>
      <thead>
        <tr>
          <th scope="col">Produto</th>
          <th scope="col" className="numero">
            Ofertado
          </th>
          <th scope="col" className="numero">
            Planejado
          </th>
          <th scope="col" className="numero">
            Pedido
          </th>
          <th scope="col" className="numero">
            Valor pedido
          </th>
          <th scope="col">Onde</th>
        </tr>
      </thead>
      <tbody>
        {entregas.map((e) => (
          <tr key={e.ofertaProdutoId}>
            <th scope="row">
              {e.produto}
              <br />
              <span className="suave pequeno">
                {reais(e.valor)} por {e.unidade}
              </span>
            </th>
            <td data-rotulo="Ofertado" className="numero">
              {quantidadeComUnidade(e.ofertado, e.unidade)}
            </td>
            <td data-rotulo="Planejado" className="numero">
              {quantidadeComUnidade(e.planejado, e.unidade)}
              <br />
              <span className="suave pequeno">{reais(deCentavos(valorPlanejado(e)))}</span>
            </td>
            <td data-rotulo="Pedido" className="numero">
              <strong>{quantidadeComUnidade(e.pedido, e.unidade)}</strong>
            </td>
            <td data-rotulo="Valor pedido" className="numero">
              <strong>{reais(e.valorPedido)}</strong>
            </td>
            <td data-rotulo="Onde">
              {e.mercados.length === 0 ? (
                <span className="suave">nada pedido ainda</span>
              ) : (
                <ul className="onde">
                  {e.mercados.map((m) => (
                    <li key={m.mercadoId ?? 'fora'}>
                      {quantidadeComUnidade(m.pedido, e.unidade)} em {m.mercado ?? FORA.toLocaleLowerCase('pt-BR')}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={4}>
            Total pedido
          </th>
          <td data-rotulo="Total pedido" className="numero">
            <strong>{reais(deCentavos(total))}</strong>
          </td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}

function PorMercado({ entregas }: { readonly entregas: readonly Entrega[] }) {
  const mercados = porMercado(entregas);
  if (mercados.length === 0) return <Aviso>Ainda não há pedidos confirmados com os seus produtos.</Aviso>;
  return (
    <ul className="cartoes mercados-entrega">
      {mercados.map((m) => (
        <li key={m.chave}>
          <h3 className="nome">{m.nome}</h3>
          <table className="tabela compacta">
            <caption className="visualmente-oculto">O que entregar para {m.nome}</caption>
            <thead>
              <tr>
                <th scope="col">Produto</th>
                <th scope="col" className="numero">
                  Pedido
                </th>
                <th scope="col" className="numero">
                  Valor
                </th>
              </tr>
            </thead>
            <tbody>
              {m.itens.map((i) => (
                <tr key={i.entrega.ofertaProdutoId}>
                  <th scope="row">{i.entrega.produto}</th>
                  <td data-rotulo="Pedido" className="numero">
                    {quantidadeComUnidade(i.pedido, i.entrega.unidade)}
                  </td>
                  <td data-rotulo="Valor" className="numero">
                    {reais(i.valorPedido)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total em {m.nome}
                </th>
                <td data-rotulo={`Total em ${m.nome}`} className="numero">
                  <strong>{reais(deCentavos(m.totalCentavos))}</strong>
                </td>
              </tr>
            </tfoot>
          </table>
        </li>
      ))}
    </ul>
  );
}

function Conteudo({ ciclo, entregas }: { readonly ciclo: CicloResumo; readonly entregas: readonly Entrega[] }) {
  return (
    <>
      <p className="suave">
        Retirada de {dataBr(ciclo.dataRetiradaInicio)} a {dataBr(ciclo.dataRetiradaFim)}. Planejado: o que as cestas
        compostas, os lotes e os itens à venda usam da sua oferta; pedido: o que foi comprado em pedidos confirmados (e
        os lotes), que é o que você entrega.
      </p>
      <section aria-labelledby="titulo-quando-entregar" className="quando-entregar">
        <h2 id="titulo-quando-entregar">Quando e onde entregar</h2>
        <DiasDeEntrega dias={ciclo.diasDeEntrega} />
      </section>
      {entregas.length === 0 ? (
        <Aviso>
          Nada a entregar neste ciclo ainda: só entram aqui os produtos de uma oferta finalizada (ou já usados em
          cestas).
        </Aviso>
      ) : (
        <>
          <Resumo entregas={entregas} />
          <Baixar endereco={`/planilhas/ciclos/${ciclo.id}/entregas`} rotulo="Baixar as entregas" />
          <h2>Por produto</h2>
          <PorProduto entregas={entregas} />
          <h2>Por mercado</h2>
          <PorMercado entregas={entregas} />
        </>
      )}
      <p className="acoes">
        {ciclo.acoes.ofertar ? (
          <Link para={`/ciclos/${ciclo.id}/oferta`} className="botao secundario">
            Editar a oferta
          </Link>
        ) : null}
        <Link para="/entregas">Todos os meus ciclos</Link>
      </p>
    </>
  );
}

/** /ciclos/:id/entregas: what the supplier delivers in a cycle, by product and by market, planned and ordered. */
export function MinhasEntregas({ id }: { readonly id: string }) {
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.entregas.ler(id), [id]);
  const nome = estado.fase === 'pronto' ? estado.dados.ciclo?.nome : undefined;
  return (
    <Pagina titulo={nome === undefined ? 'Minhas entregas' : `Minhas entregas em ${nome}`}>
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ ciclo, entregas }) =>
          ciclo === null ? <Falha mensagem="Ciclo não encontrado." /> : <Conteudo ciclo={ciclo} entregas={entregas} />
        }
      </ComCarga>
    </Pagina>
  );
}
