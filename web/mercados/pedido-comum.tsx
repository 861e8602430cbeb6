/**
 * What the Consumidor's pages share (the cycles list, the order page and "meus pedidos"): a pickup
 * point, a market's fee, and an order's status and summary. Kept out of the pages' modules, so each page stays a chunk of its own.
 */
import { decimalLegivel, reais } from './dinheiro.ts';
import { enderecoDe, quandoRetirar, type Pedido, type PontoDeRetirada } from './fluxo-consumidor.ts';
import { dataHoraBr, quantidadeComUnidade } from './formatos.ts';
import { TabelaDeLinhas } from './tabela.tsx';

/** A pickup point: its name, address, and day and hours in the cycle. */
export function Ponto({ ponto }: { readonly ponto: PontoDeRetirada }) {
  const endereco = enderecoDe(ponto);
  const quando = quandoRetirar(ponto);
  return (
    <>
      <strong>{ponto.nome}</strong>
      {endereco === null ? null : <span className="suave"> · {endereco}</span>}
      <br />
      <span className="pequeno">{quando === null ? 'Dia e horário a combinar' : `Retirada: ${quando}`}</span>
    </>
  );
}

export function taxaLegivel(taxa: string | null): string {
  return taxa === null || Number(taxa) === 0 ? 'sem taxa' : `taxa de ${decimalLegivel(taxa)}%`;
}

/** Where an order stands, as the server says: confirmed (when), changed after confirming, or not confirmed. */
export function SituacaoDoPedido({ pedido }: { readonly pedido: Pedido }) {
  if (pedido.finalizado) {
    return (
      <p className="situacao confirmado">
        <span className="etiqueta ativo">Confirmado</span> confirmado em{' '}
        {pedido.dataConfirmacao === null ? '—' : dataHoraBr(pedido.dataConfirmacao)}
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
      <TabelaDeLinhas
        className="tabela pedido"
        legenda={titulo}
        legendaOculta
        linhas={pedido.produtos}
        chave={(l) => l.id}
        primeira={{
          titulo: 'Item e mercado',
          rotulo: 'Item',
          celula: (l) => (
            <>
              {l.nome}
              <br />
              <span className="suave pequeno">{l.mercado ?? 'sem mercado'}</span>
            </>
          ),
        }}
        colunas={[
          {
            titulo: 'Quantidade × preço',
            celula: (l) => (
              <>
                {quantidadeComUnidade(l.quantidade, l.unidade)} × {reais(l.valor)}
              </>
            ),
          },
          { titulo: 'Subtotal', celula: (l) => reais(l.subtotal) },
        ]}
      />
      <dl className="ficha totais">
        {pedido.partes.map((x) => (
          <div key={x.mercadoId ?? 'comunidade'} className="parte">
            <dt>{x.mercado ?? 'Fora de mercados'}</dt>
            <dd>
              {reais(x.subtotal)} + taxa {reais(x.taxa)}{' '}
              <span className="suave pequeno">
                ({x.taxaAdministrativa === null ? 'taxa da comunidade' : taxaLegivel(x.taxaAdministrativa)})
              </span>
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
