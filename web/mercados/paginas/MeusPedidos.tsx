import { useState } from 'react';
import { Aviso, ComCarga, Pagina, Sucesso } from '../componentes.tsx';
import { reais } from '../dinheiro.ts';
import { ciclosPorIds, dataBr, dataHoraBr, listarMeusPedidos, quantidadeComUnidade, usePaginas, type CicloDoPedido, type PaginaDe, type Pedido } from '../fluxo-consumidor.ts';
import { Link } from '../navegacao.tsx';
import { CarregarMais, Ponto, taxaLegivel } from './Ciclos.tsx';

/** Where an order stands, as the server says: confirmed (when), changed after confirming, or not confirmed. */
export function SituacaoDoPedido({ pedido }: { readonly pedido: Pedido }) {
  if (pedido.finalizado) {
    return (
      <p className="situacao confirmado">
        <span className="etiqueta ativo">Confirmado</span> confirmado em {pedido.dataConfirmacao === null ? '—' : dataHoraBr(pedido.dataConfirmacao)}
      </p>
    );
  }
  if (pedido.alteradoAposConfirmar) {
    return (
      <p className="situacao alterado">
        <span className="etiqueta inativo">Alterado</span> Pedido alterado: falta confirmar de novo
      </p>
    );
  }
  return (
    <p className="situacao">
      <span className="etiqueta inativo">Não confirmado</span> salvo, ainda não confirmado
    </p>
  );
}

/** An order's lines, the fee of each market apart, and the totals: the server's figures. */
export function ResumoDoPedido({ pedido, titulo }: { readonly pedido: Pedido; readonly titulo: string }) {
  return (
    <>
      <table className="tabela pedido">
        <caption className="visualmente-oculto">{titulo}</caption>
        <thead>
          <tr>
            <th scope="col">Item e mercado</th>
            <th scope="col" className="numero">
              Quantidade × preço
            </th>
            <th scope="col" className="numero">
              Subtotal
            </th>
          </tr>
        </thead>
        <tbody>
          {pedido.produtos.map((l) => (
            <tr key={l.id}>
              <th scope="row" data-rotulo="Item">
                {l.nome}
                <br />
                <span className="suave pequeno">{l.mercado ?? 'sem mercado'}</span>
              </th>
              <td data-rotulo="Quantidade × preço" className="numero">
                {quantidadeComUnidade(l.quantidade, l.unidade)} × {reais(l.valor)}
              </td>
              <td data-rotulo="Subtotal" className="numero">
                {reais(l.subtotal)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="ficha totais">
        {pedido.partes.map((x) => (
          <div key={x.mercadoId ?? 'comunidade'} className="parte">
            <dt>{x.mercado ?? 'Fora de mercados'}</dt>
            <dd>
              {reais(x.subtotal)} + taxa {reais(x.taxa)}{' '}
              <span className="suave pequeno">({x.taxaAdministrativa === null ? 'taxa da comunidade' : taxaLegivel(x.taxaAdministrativa)})</span>
            </dd>
          </div>
        ))}
        <div>
          <dt>Produtos</dt>
          <dd>{reais(pedido.total)}</dd>
        </div>
        <div>
          <dt>Taxas</dt>
          <dd>{reais(pedido.taxa)}</dd>
        </div>
        <div className="total">
          <dt>Total a pagar</dt>
          <dd>{reais(pedido.totalComTaxa)}</dd>
        </div>
      </dl>
      <p>
        <span className="suave">Ponto de retirada:</span> <Ponto ponto={pedido.pontoEntrega} />
      </p>
    </>
  );
}

/** The Pix to pay what the person owes: copy-and-paste text with a copy button, and the QR code. */
function Pix({ pix }: { readonly pix: NonNullable<Pedido['pix']> }) {
  const [copiado, setCopiado] = useState<'sim' | 'falhou' | null>(null);
  const id = `pix-${pix.valor}`;
  const copiar = () => {
    navigator.clipboard.writeText(pix.copiaECola).then(
      () => setCopiado('sim'),
      () => setCopiado('falhou'),
    );
  };
  return (
    <details className="pix">
      <summary>Pagar com Pix: {reais(pix.valor)}</summary>
      <p className="suave pequeno">O valor é tudo o que você deve agora (seu saldo e os pedidos confirmados), como na página de saldo.</p>
      <img className="qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pix.qrSvg)}`} alt={`QR code do Pix de ${reais(pix.valor)}`} width={200} height={200} />
      <div className="campo">
        <label htmlFor={id}>Pix copia e cola</label>
        <textarea id={id} readOnly rows={3} value={pix.copiaECola} onFocus={(e) => e.target.select()} />
      </div>
      <button type="button" className="botao secundario" onClick={copiar}>
        Copiar código Pix
      </button>
      {copiado === 'sim' ? <Sucesso>Código copiado.</Sucesso> : null}
      {copiado === 'falhou' ? <Aviso>Não foi possível copiar: selecione o texto acima e copie.</Aviso> : null}
    </details>
  );
}

function CartaoPedido({ pedido, ciclo }: { readonly pedido: Pedido; readonly ciclo: CicloDoPedido | undefined }) {
  const nome = ciclo?.nome ?? `Ciclo ${pedido.cicloId}`;
  const id = `pedido-${pedido.id}`;
  return (
    <li className="ciclo">
      <article aria-labelledby={`${id}-titulo`}>
        <h2 id={`${id}-titulo`}>{nome}</h2>
        {ciclo === undefined ? null : (
          <p className="suave pequeno">
            Pedidos até {dataBr(ciclo.dataPedidoFim)} · retirada {ciclo.dataRetiradaInicio === ciclo.dataRetiradaFim ? `em ${dataBr(ciclo.dataRetiradaInicio)}` : `de ${dataBr(ciclo.dataRetiradaInicio)} a ${dataBr(ciclo.dataRetiradaFim)}`}
          </p>
        )}
        <SituacaoDoPedido pedido={pedido} />
        <ResumoDoPedido pedido={pedido} titulo={`Pedido em ${nome}`} />
        {pedido.pix === null ? null : <Pix pix={pedido.pix} />}
        {ciclo?.acoes.pedir === true ? (
          <p className="acoes">
            <Link para={`/ciclos/${pedido.cicloId}/pedido`} className="botao secundario" aria-describedby={`${id}-titulo`}>
              {pedido.finalizado ? 'Alterar pedido' : 'Continuar pedido'}
            </Link>
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** A page of orders, each with its cycle (one request for the cycles of the page). */
async function pedidosComCiclos(after: string | null): Promise<PaginaDe<{ pedido: Pedido; ciclo: CicloDoPedido | undefined }>> {
  const pagina = await listarMeusPedidos(after);
  const ciclos = await ciclosPorIds(pagina.itens.map((p) => p.cicloId));
  return { itens: pagina.itens.map((pedido) => ({ pedido, ciclo: ciclos.get(pedido.cicloId) })), proxima: pagina.proxima };
}

/** /pedidos: the person's orders of every cycle, newest first, with status, fees per market, totals and the Pix. */
export function MeusPedidos() {
  const pedidos = usePaginas(pedidosComCiclos, []);
  return (
    <Pagina titulo="Meus pedidos">
      <ComCarga estado={pedidos.estado} recarregar={pedidos.recarregar}>
        {(lista) =>
          lista.length === 0 ? (
            <div className="aviso" role="status">
              <p>
                <strong>Você ainda não fez nenhum pedido.</strong>
              </p>
              <p>
                Quando um ciclo abre os pedidos, ele aparece em <Link para="/ciclos">Ciclos</Link> com o botão “Fazer pedido”.
              </p>
            </div>
          ) : (
            <>
              <ul className="lista-ciclos" aria-label="Pedidos">
                {lista.map(({ pedido, ciclo }) => (
                  <CartaoPedido key={pedido.id} pedido={pedido} ciclo={ciclo} />
                ))}
              </ul>
              <CarregarMais haMais={pedidos.haMais} carregando={pedidos.carregandoMais} erro={pedidos.erroMais} carregar={pedidos.carregarMais} oQue="pedidos" />
            </>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
