import { useState } from 'react';
import { Aviso, AvisoComTitulo, ComCarga, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { paraCentavos, reais } from '../dinheiro.ts';
import {
  ciclosPorIds,
  lerMinhaCobranca,
  listarMeusPedidos,
  type CicloDoPedido,
  type Cobranca,
  type Pedido,
  type Pix,
} from '../fluxo-consumidor.ts';
import { dataBr } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { ListaPaginada, POR_PAGINA, usePaginado } from '../paginado.tsx';
import { ResumoDoPedido, SituacaoDoPedido } from '../pedido-comum.tsx';

/** The copy-and-paste code with a "Copiar código Pix" button that says "Código copiado". */
function CopiaECola({ pix }: { readonly pix: Pix }) {
  const [copiado, setCopiado] = useState<'sim' | 'falhou' | null>(null);
  const copiar = () => {
    navigator.clipboard.writeText(pix.copiaECola).then(
      () => setCopiado('sim'),
      () => setCopiado('falhou'),
    );
  };
  return (
    <>
      <img
        className="qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pix.qrSvg)}`}
        alt={`QR code do Pix de ${reais(pix.valor)}`}
        width={200}
        height={200}
      />
      <div className="campo">
        <label htmlFor="pix-copia">Pix copia e cola de {reais(pix.valor)} (tudo o que você deve)</label>
        <textarea
          id="pix-copia"
          readOnly
          rows={5}
          value={pix.copiaECola}
          onFocus={(e) => e.target.select()}
          onClick={(e) => e.currentTarget.select()}
        />
      </div>
      <p className="acoes">
        <button type="button" className="botao" onClick={copiar}>
          Copiar código Pix
        </button>
      </p>
      <div aria-live="polite">
        {copiado === 'sim' ? <Sucesso>Código copiado.</Sucesso> : null}
        {copiado === 'falhou' ? <Aviso>Não deu para copiar sozinho: toque no código e copie pelo menu.</Aviso> : null}
      </div>
    </>
  );
}

/**
 * What the person owes and the one Pix that pays it all, once, above the orders: the Pix pays the
 * balance, not an order (docs/dominio.md), so it is never repeated under each order.
 */
function Pagamento({ cobranca }: { readonly cobranca: Cobranca }) {
  const centavos = paraCentavos(cobranca.devido.replace('-', ''));
  const credito = cobranca.devido.startsWith('-');
  return (
    <section className="pix" id="pagar" aria-labelledby="t-pagar">
      <h2 id="t-pagar">Pagar com Pix</h2>
      {centavos === null || centavos === 0 || credito ? (
        <p>
          {credito
            ? `Nada a pagar agora: você tem ${reais(cobranca.devido.replace('-', ''))} de crédito.`
            : 'Nada a pagar agora.'}
        </p>
      ) : (
        <>
          <p>
            Este Pix paga <strong>tudo o que você deve hoje: {reais(cobranca.devido)}</strong>, o saldo, e não um pedido
            só. Pague uma vez: quando a coordenação registra o pagamento, o valor devido diminui.
          </p>
          <dl className="totais">
            {cobranca.linhas.map((l, i) => (
              <div key={i}>
                <dt>{l.descricao}</dt>
                <dd>{l.valor.startsWith('-') ? `− ${reais(l.valor.slice(1))}` : reais(l.valor)}</dd>
              </div>
            ))}
            <div className="total">
              <dt>Total a pagar</dt>
              <dd>{reais(cobranca.devido)}</dd>
            </div>
          </dl>
          {cobranca.pix === null ? (
            <p className="suave">Combine o pagamento com a coordenação.</p>
          ) : (
            <CopiaECola pix={cobranca.pix} />
          )}
        </>
      )}
    </section>
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
            Pedidos até {dataBr(ciclo.dataPedidoFim)} · retirada{' '}
            {ciclo.dataRetiradaInicio === ciclo.dataRetiradaFim
              ? `em ${dataBr(ciclo.dataRetiradaInicio)}`
              : `de ${dataBr(ciclo.dataRetiradaInicio)} a ${dataBr(ciclo.dataRetiradaFim)}`}
          </p>
        )}
        <SituacaoDoPedido pedido={pedido} />
        <ResumoDoPedido pedido={pedido} titulo={`Pedido em ${nome}`} />
        {ciclo?.acoes.pedir === true ? (
          <p className="acoes">
            <Link
              para={`/ciclos/${pedido.cicloId}/pedido`}
              className="botao secundario"
              aria-describedby={`${id}-titulo`}
            >
              {pedido.finalizado ? 'Alterar pedido' : 'Continuar pedido'}
            </Link>
          </p>
        ) : null}
      </article>
    </li>
  );
}

/** A page of orders, each with its cycle (one request for the cycles of the page). */
async function pedidosComCiclos(
  first: number,
  after: string | null,
): Promise<ReadonlyArray<{ pedido: Pedido; ciclo: CicloDoPedido | undefined }>> {
  const pedidos = await listarMeusPedidos(first, after);
  const ciclos = await ciclosPorIds(pedidos.map((p) => p.cicloId));
  return pedidos.map((pedido) => ({ pedido, ciclo: ciclos.get(pedido.cicloId) }));
}

/** /pedidos: what the person owes and its Pix (once), then their orders of every cycle, newest first, with status, fees per market and totals. */
export function MeusPedidos() {
  const pedidos = usePaginado(pedidosComCiclos, (x) => x.pedido.cursor, POR_PAGINA, []);
  const cobranca = useCarga(lerMinhaCobranca, []);
  return (
    <Pagina titulo="Meus pedidos">
      <ComCarga estado={cobranca.estado} recarregar={cobranca.recarregar}>
        {(c) => <Pagamento cobranca={c} />}
      </ComCarga>
      <ListaPaginada
        pagina={pedidos}
        rotulo="Carregar mais pedidos"
        vazio={
          <AvisoComTitulo titulo="Você ainda não fez nenhum pedido.">
            Quando um ciclo abre os pedidos, ele aparece em <Link para="/ciclos">Ciclos</Link> com o botão “Fazer
            pedido”.
          </AvisoComTitulo>
        }
      >
        {(lista) => (
          <ul className="lista-ciclos" aria-label="Pedidos">
            {lista.map(({ pedido, ciclo }) => (
              <CartaoPedido key={pedido.id} pedido={pedido} ciclo={ciclo} />
            ))}
          </ul>
        )}
      </ListaPaginada>
    </Pagina>
  );
}
