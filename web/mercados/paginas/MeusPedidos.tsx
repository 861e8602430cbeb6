import { useState } from 'react';
import { Aviso, AvisoComTitulo, Pagina, Sucesso } from '../componentes.tsx';
import { reais } from '../dinheiro.ts';
import { ciclosPorIds, listarMeusPedidos, type CicloDoPedido, type Pedido } from '../fluxo-consumidor.ts';
import { dataBr } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { ListaPaginada, POR_PAGINA, usePaginado } from '../paginado.tsx';
import { ResumoDoPedido, SituacaoDoPedido } from '../pedido-comum.tsx';

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
      <p className="suave pequeno">
        O valor é tudo o que você deve agora (seu saldo e os pedidos confirmados), como na página de saldo.
      </p>
      <img
        className="qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pix.qrSvg)}`}
        alt={`QR code do Pix de ${reais(pix.valor)}`}
        width={200}
        height={200}
      />
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
            Pedidos até {dataBr(ciclo.dataPedidoFim)} · retirada{' '}
            {ciclo.dataRetiradaInicio === ciclo.dataRetiradaFim
              ? `em ${dataBr(ciclo.dataRetiradaInicio)}`
              : `de ${dataBr(ciclo.dataRetiradaInicio)} a ${dataBr(ciclo.dataRetiradaFim)}`}
          </p>
        )}
        <SituacaoDoPedido pedido={pedido} />
        <ResumoDoPedido pedido={pedido} titulo={`Pedido em ${nome}`} />
        {pedido.pix === null ? null : <Pix pix={pedido.pix} />}
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

/** /pedidos: the person's orders of every cycle, newest first, with status, fees per market, totals and the Pix. */
export function MeusPedidos() {
  const pedidos = usePaginado(pedidosComCiclos, (x) => x.pedido.cursor, POR_PAGINA, []);
  return (
    <Pagina titulo="Meus pedidos">
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
