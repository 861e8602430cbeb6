import { useState } from 'react';
import { mensagemDe } from '../api.ts';
import { Baixar, Carregando, ComCarga, Falha, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { desativarMercado, type Mercado } from '../consultas.ts';
import { decimalLegivel, reais } from '../dinheiro.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import { CICLOS_DO_MERCADO_POR_PAGINA, etiquetasDoCiclo, type CicloDoMercado } from '../fluxo-mercado.ts';
import { dataBr } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { nomeDoTipo, tipoDeMercado } from '../tipos-de-mercado.ts';
import { CarregarMais, usePaginado, type EstadoPaginado } from '../paginado.tsx';

/** Deactivating asks for a second click: nothing is deleted, but the market leaves the lists. */
function Desativar({ mercado, aoConcluir }: { readonly mercado: Mercado; readonly aoConcluir: () => void }) {
  const [confirmando, setConfirmando] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  const confirmar = async () => {
    setEnviando(true);
    setErro(null);
    try {
      await desativarMercado(mercado.id);
      aoConcluir();
    } catch (e) {
      setErro(mensagemDe(e));
    } finally {
      setEnviando(false);
    }
  };
  return (
    <div className="desativar">
      {confirmando ? (
        <div className="confirmacao" role="group" aria-labelledby="pergunta-desativar">
          <p id="pergunta-desativar">
            Desativar <strong>{mercado.nome}</strong>? Ele sai das listas de mercados ativos; nada é apagado.
          </p>
          <button type="button" className="botao perigo" onClick={() => void confirmar()} disabled={enviando}>
            {enviando ? 'Desativando…' : 'Confirmar desativação'}
          </button>
          <button type="button" className="botao secundario" onClick={() => setConfirmando(false)} disabled={enviando}>
            Cancelar
          </button>
        </div>
      ) : (
        <button type="button" className="botao perigo" onClick={() => setConfirmando(true)}>
          Desativar mercado
        </button>
      )}
      {erro === null ? null : <Falha mensagem={erro} />}
    </div>
  );
}

type Ciclos = ReturnType<typeof useCiclos>;

function Detalhe({
  mercado,
  ciclos,
  aoMudar,
  desativado,
}: {
  readonly mercado: Mercado;
  readonly ciclos: Ciclos;
  readonly aoMudar: () => void;
  readonly desativado: boolean;
}) {
  return (
    <>
      {desativado ? <Sucesso>Mercado desativado.</Sucesso> : null}
      <dl className="ficha">
        <dt>Situação</dt>
        <dd>
          <span className={mercado.ativo ? 'etiqueta ativo' : 'etiqueta inativo'}>
            {mercado.ativo ? 'Ativo' : 'Inativo'}
          </span>
        </dd>
        <dt>Tipo</dt>
        <dd>{nomeDoTipo(mercado.tipo)}</dd>
        <dt>Descrição</dt>
        <dd>{mercado.descricao ?? '—'}</dd>
        <dt>Taxa administrativa</dt>
        <dd>{mercado.taxaAdministrativa === null ? '—' : `${decimalLegivel(mercado.taxaAdministrativa)} %`}</dd>
        {tipoDeMercado(mercado.tipo).exigeValorMaximoCesta ? (
          <>
            <dt>Valor máximo da cesta</dt>
            <dd>{reais(mercado.valorMaximoCesta)}</dd>
          </>
        ) : null}
        <dt>Administração</dt>
        <dd>{mercado.admin?.name ?? '—'}</dd>
      </dl>
      <p className="acoes">
        {mercado.acoes.editar ? (
          <Link para={`/mercados/${mercado.id}/editar`} className="botao secundario">
            Editar mercado
          </Link>
        ) : null}
        {mercado.acoes.editarPrecos ? (
          <Link para={`/mercados/${mercado.id}/precos`} className="botao">
            Editar preços
          </Link>
        ) : null}
      </p>
      {mercado.acoes.desativar ? <Desativar mercado={mercado} aoConcluir={aoMudar} /> : null}
      <CiclosDoMercado mercadoId={mercado.id} ciclos={ciclos} verPedidos={mercado.acoes.verPedidos} />
      <section aria-labelledby="titulo-precos">
        <h2 id="titulo-precos">Preços</h2>
        {mercado.precos.length === 0 ? (
          <p className="suave">Este mercado ainda não tem preços.</p>
        ) : (
          <>
            {mercado.acoes.baixarPrecos ? (
              <Baixar endereco={`/planilhas/mercados/${mercado.id}/precos`} rotulo="Baixar os preços" />
            ) : null}
            <table className="tabela">
              <caption className="visualmente-oculto">Preços de {mercado.nome}</caption>
              <thead>
                <tr>
                  <th scope="col">Produto</th>
                  <th scope="col">Unidade</th>
                  <th scope="col" className="numero">
                    Preço
                  </th>
                  <th scope="col">Situação</th>
                </tr>
              </thead>
              <tbody>
                {mercado.precos.map((p) => (
                  <tr key={p.produtoId}>
                    <th scope="row" data-rotulo="Produto">
                      {p.produto.nome}
                    </th>
                    <td data-rotulo="Unidade">{p.produto.unidade}</td>
                    <td data-rotulo="Preço" className="numero">
                      {reais(p.preco)}
                    </td>
                    <td data-rotulo="Situação">{p.ativo ? 'À venda' : 'Fora de venda'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
    </>
  );
}

const periodo = (inicio: string, fim: string): string =>
  inicio === fim ? dataBr(inicio) : `${dataBr(inicio)} a ${dataBr(fim)}`;

function CartaoCiclo({
  ciclo,
  mercadoId,
  verPedidos,
}: {
  readonly ciclo: CicloDoMercado;
  readonly mercadoId: string;
  readonly verPedidos: boolean;
}) {
  const titulo = `ciclo-${ciclo.id}`;
  return (
    <li aria-labelledby={titulo}>
      <span className="nome" id={titulo}>
        {ciclo.nome}
      </span>
      {etiquetasDoCiclo(ciclo).map((e) => (
        <span key={e} className="etiqueta fase">
          {e}
        </span>
      ))}
      <dl className="datas">
        <dt>Ofertas</dt>
        <dd>{periodo(ciclo.dataOfertaInicio, ciclo.dataOfertaFim)}</dd>
        <dt>Pedidos</dt>
        <dd>{periodo(ciclo.dataPedidoInicio, ciclo.dataPedidoFim)}</dd>
        <dt>Retirada</dt>
        <dd>{periodo(ciclo.dataRetiradaInicio, ciclo.dataRetiradaFim)}</dd>
      </dl>
      {verPedidos ? (
        <p>
          <Link para={`/mercados/${mercadoId}/ciclos/${ciclo.id}/pedidos`} className="botao secundario">
            Pedidos deste mercado<span className="visualmente-oculto"> no ciclo {ciclo.nome}</span>
          </Link>
        </p>
      ) : null}
    </li>
  );
}

/** The cycles that serve the market, as far as the API shows them to this person, ten at a time. */
function useCiclos(mercadoId: string) {
  return usePaginado(
    (first, after) => PRIMEIRAS.ciclosDoMercado.ler(mercadoId, first, after),
    (c) => c.id,
    CICLOS_DO_MERCADO_POR_PAGINA,
    [mercadoId],
  );
}

function CiclosDoMercado({
  mercadoId,
  ciclos,
  verPedidos,
}: {
  readonly mercadoId: string;
  readonly ciclos: Ciclos;
  readonly verPedidos: boolean;
}) {
  const { estado, carregarMais, recarregar } = ciclos;
  return (
    <section aria-labelledby="titulo-ciclos">
      <h2 id="titulo-ciclos">Ciclos</h2>
      {estado.fase === 'carregando' ? <Carregando texto="Carregando os ciclos…" /> : null}
      {estado.fase === 'erro' ? <Falha mensagem={estado.mensagem} tentarDeNovo={recarregar} /> : null}
      {estado.fase === 'pronto' && estado.dados.length === 0 ? (
        <p className="suave">Nenhum ciclo atual, futuro ou recente deste mercado que você possa ver.</p>
      ) : null}
      {estado.fase === 'pronto' && estado.dados.length > 0 ? (
        <ul className="cartoes ciclos">
          {estado.dados.map((ciclo) => (
            <CartaoCiclo key={ciclo.id} ciclo={ciclo} mercadoId={mercadoId} verPedidos={verPedidos} />
          ))}
        </ul>
      ) : null}
      <CarregarMais estado={estado} carregarMais={carregarMais} rotulo="Carregar mais ciclos" />
    </section>
  );
}

/**
 * Whether the first page of cycles has answered (or failed) since the page opened. Until then the
 * market waits for it: both are asked at once, and the page is drawn and laid out once, instead of
 * the market first and the cycles pushing the prices down a moment later.
 */
function usePrimeiraResposta(estado: EstadoPaginado<unknown>): boolean {
  const [chegou, setChegou] = useState(false);
  if (!chegou && estado.fase !== 'carregando') setChegou(true);
  return chegou || estado.fase !== 'carregando';
}

/** /mercados/:id: the market, its prices, and what I may do with it (from the server's `acoes`). */
export function DetalheMercado({ id }: { readonly id: string }) {
  // The market and its first cycles are asked for together (one round trip, not two in a row).
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.mercado.ler(id), [id]);
  const ciclos = useCiclos(id);
  const mostrado = usePrimeiraResposta(ciclos.estado) ? estado : ({ fase: 'carregando' } as const);
  const [desativado, setDesativado] = useState(false);
  const titulo = mostrado.fase === 'pronto' && mostrado.dados !== null ? mostrado.dados.nome : 'Mercado';
  return (
    <Pagina titulo={titulo}>
      <p>
        <Link para="/mercados">← Todos os mercados</Link>
      </p>
      <ComCarga estado={mostrado} recarregar={recarregar}>
        {(mercado) =>
          mercado === null ? (
            <div className="alerta" role="alert">
              <p>Mercado não encontrado.</p>
            </div>
          ) : (
            <Detalhe
              mercado={mercado}
              ciclos={ciclos}
              desativado={desativado}
              aoMudar={() => {
                setDesativado(true);
                recarregar();
                ciclos.recarregar();
              }}
            />
          )
        }
      </ComCarga>
    </Pagina>
  );
}
