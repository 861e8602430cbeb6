/**
 * An order opened at the pickup: its items (a basket with what is in it), "Entregue", a short per
 * item (quantity, what was given instead, a note), a payment received (cash or Pix, with the Pix of
 * what is owed drawn on the device) and a note. Each tap is kept on the device and shown at once.
 */
import { Suspense, lazy, useId, useState, type FormEvent } from 'react';
import {
  ESCALA_QUANTIDADE,
  MAXIMO_LANCAMENTO_CENTAVOS,
  formatarQuantidade,
  formatarQuantidadeComUnidade,
  lerDecimalDigitado,
} from '../../src/decimal.ts';
import { decimalLegivel, deCentavos, erroDoValor, paraCentavos, reaisDeCentavos } from '../mercados/dinheiro.ts';
import { deMilesimos, quantidadeComUnidade } from '../mercados/formatos.ts';
import { Titulo, acoes, diaEHora, hora } from './comum.tsx';
import {
  centavosDe,
  linhasDoPedido,
  registroDe,
  situacaoDoPedido,
  type ItemEntregue,
  type Registro,
} from './estado.ts';
import { pixComValor } from './pix.ts';
import type { Ponto } from './sincronia.ts';
import type { AcaoParaEnviar, FormaDePagamento, PedidoNaRetirada, RetiradaDoPonto } from './tipos.ts';

const DesenhoDoQr = lazy(() => import('./qr.tsx').then((m) => ({ default: m.DesenhoDoQr })));

const MAX_SUBSTITUTO = 200;
const MAX_TEXTO = 500;

/** The name and unit of what a record is about: an extra line, or a product of a basket line. */
function itemDoRegistro(
  dados: RetiradaDoPonto,
  r: { readonly pedidoId: string; readonly pedidoProdutoId: string | null; readonly produtoId: string | null },
): { nome: string; unidade: string } | null {
  const linha = dados.pedidos
    .find((x) => x.id === r.pedidoId)
    ?.itens.find((i) => i.pedidoProdutoId === r.pedidoProdutoId);
  if (linha === undefined) return null;
  if (r.produtoId === null) return { nome: linha.nome, unidade: linha.unidade };
  const c = dados.cestas
    .find((x) => x.cicloCestaId === linha.cicloCestaId)
    ?.itens.find((i) => i.produtoId === r.produtoId);
  return c === undefined ? null : { nome: c.nome, unidade: c.unidade };
}

const FORMAS: Readonly<Record<FormaDePagamento, string>> = { dinheiro: 'em dinheiro', pix: 'por Pix' };

export function descreverRegistro(r: Registro, dados: RetiradaDoPonto): string {
  switch (r.tipo) {
    case 'retirada':
      return 'Entregue';
    case 'falta': {
      const item = itemDoRegistro(dados, r);
      const qtd =
        r.quantidadeMilesimos === null ? '' : formatarQuantidadeComUnidade(r.quantidadeMilesimos, item?.unidade ?? '');
      const partes = [`Faltou ${qtd}${item === null ? '' : ` de ${item.nome}`}`];
      if (r.substituto !== null && r.substituto !== '') partes.push(`no lugar: ${r.substituto}`);
      if (r.texto !== null && r.texto !== '') partes.push(`nota: ${r.texto}`);
      return partes.join('; ');
    }
    case 'pagamento':
      return `Pagamento de ${reaisDeCentavos(r.valorCentavos ?? 0)} ${r.forma === null ? '' : FORMAS[r.forma]}`.trim();
    case 'nota':
      return `Nota: ${r.texto ?? ''}`;
  }
}

export function descreverAcao(a: AcaoParaEnviar, dados: RetiradaDoPonto): string {
  return descreverRegistro(registroDe(a, '', 'fila'), dados);
}

const ESTADOS: Readonly<Record<Registro['origem'], string>> = {
  servidor: 'enviado',
  enviada: 'enviado',
  fila: 'esperando envio',
};

export function PaginaDoPedido({
  pedido,
  dados,
  registros,
  ponto,
}: {
  readonly pedido: PedidoNaRetirada;
  readonly dados: RetiradaDoPonto;
  readonly registros: readonly Registro[];
  readonly ponto: Ponto;
}) {
  const s = situacaoDoPedido(pedido, registros);
  const linhas = linhasDoPedido(pedido, dados, s.faltas);
  const [feito, setFeito] = useState<string | null>(null);

  const registrar = (acao: Omit<AcaoParaEnviar, 'chave' | 'feitoEm' | 'pedidoId'>, mensagem: string) => {
    ponto.registrar({ ...acao, pedidoId: pedido.id });
    setFeito(`${mensagem} Guardado neste aparelho${navigator.onLine ? '' : ', esperando a internet para enviar'}.`);
  };

  return (
    <article className="pedido-aberto">
      <Titulo texto={pedido.pessoa}>{pedido.pessoa}</Titulo>
      <p className="suave subtitulo">
        Pedido {pedido.id} · {pedido.assinatura ? 'assinatura' : 'pedido avulso'}
        {pedido.telefone === null ? null : (
          <>
            {' · '}
            <a href={`tel:${pedido.telefone.replace(/[^\d+]/g, '')}`}>{pedido.telefone}</a>
          </>
        )}
      </p>

      <p className="feito" role="status" aria-live="polite">
        {feito}
      </p>

      <section aria-labelledby="titulo-entrega" className="bloco">
        <h2 id="titulo-entrega">Entrega</h2>
        {s.retirada === null ? (
          <button
            type="button"
            className="botao grande entregar"
            onClick={() => registrar({ tipo: 'retirada' }, 'Entrega registrada.')}
          >
            <span aria-hidden="true">✓ </span>Entregue
          </button>
        ) : (
          <div className="sucesso">
            <p>
              <span aria-hidden="true">✓ </span>Retirado às {hora(s.retirada.feitoEm)}
              {s.retirada.quem === '' ? '' : `, por ${s.retirada.quem}`}
              {s.retirada.origem === 'fila' ? ' (esperando envio)' : ''}.
            </p>
            {s.retiradas > 1 ? (
              <p className="pequeno">Registrado {s.retiradas} vezes: a coordenação vê isso como um conflito.</p>
            ) : null}
          </div>
        )}
      </section>

      <section aria-labelledby="titulo-itens" className="bloco">
        <h2 id="titulo-itens">Itens</h2>
        <ul className="itens">
          {linhas.map((l) =>
            l.tipo === 'extra' ? (
              l.itens.map((i) => <LinhaDeItem key={l.pedidoProdutoId} item={i} registrar={registrar} />)
            ) : (
              <li key={l.pedidoProdutoId} className="cesta">
                <p className="nome-cesta">
                  {l.nome}{' '}
                  <span className="suave">({quantidadeComUnidade(deMilesimos(l.quantidadeMilesimos), l.unidade)})</span>
                </p>
                <ul>
                  {l.itens.map((i) => (
                    <LinhaDeItem key={`${l.pedidoProdutoId}:${i.produtoId ?? ''}`} item={i} registrar={registrar} />
                  ))}
                </ul>
              </li>
            ),
          )}
        </ul>
      </section>

      <Pagamento pedido={pedido} devido={s.devidoCentavos} pago={s.pagoCentavos} registrar={registrar} />

      <Nota registrar={registrar} />

      <section aria-labelledby="titulo-registros" className="bloco">
        <h2 id="titulo-registros">Registros deste pedido</h2>
        {registros.length === 0 ? (
          <p className="suave">Nada registrado ainda.</p>
        ) : (
          <ul className="registros">
            {registros.map((r) => (
              <li key={r.chave}>
                <span>
                  {diaEHora(r.feitoEm)} · {descreverRegistro(r, dados)}
                  {r.quem === '' ? '' : ` · ${r.quem}`} ·{' '}
                  <span className={r.origem === 'fila' ? 'pendente-texto' : 'suave'}>{ESTADOS[r.origem]}</span>
                </span>
                {r.origem === 'fila' && !ponto.enviando ? (
                  <button
                    type="button"
                    className="botao secundario pequeno-botao"
                    onClick={() => {
                      ponto.desfazer(r.chave);
                      setFeito('Ação desfeita: ela não será enviada.');
                    }}
                  >
                    Desfazer<span className="visualmente-oculto">: {descreverRegistro(r, dados)}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {s.naFila > 0 ? <p className="pequeno suave">{acoes(s.naFila)} deste pedido esperando envio.</p> : null}
      </section>
    </article>
  );
}

type Registrar = (acao: Omit<AcaoParaEnviar, 'chave' | 'feitoEm' | 'pedidoId'>, mensagem: string) => void;

/** An item handed over, with its "Faltou" form. */
function LinhaDeItem({ item, registrar }: { readonly item: ItemEntregue; readonly registrar: Registrar }) {
  const id = useId();
  const [aberto, setAberto] = useState(false);
  const restante = Math.max(0, item.quantidadeMilesimos - item.faltouMilesimos);
  const [quantidade, setQuantidade] = useState('');
  const [substituto, setSubstituto] = useState('');
  const [nota, setNota] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const qtd = (m: number) => formatarQuantidadeComUnidade(m, item.unidade);

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    const r = lerDecimalDigitado(quantidade, ESCALA_QUANTIDADE);
    if (!r.ok || r.valor <= 0) {
      setErro(`Escreva quanto faltou, em ${item.unidade}, como 1 ou 0,5.`);
      return;
    }
    if (r.valor > restante) {
      setErro(
        `A falta passaria do que foi pedido: ${restante === 0 ? 'toda a quantidade já está registrada como falta' : `no máximo ${qtd(restante)}`}.`,
      );
      return;
    }
    const sub = substituto.trim();
    const texto = nota.trim();
    registrar(
      {
        tipo: 'falta',
        pedidoProdutoId: item.pedidoProdutoId,
        ...(item.produtoId === null ? {} : { produtoId: item.produtoId }),
        quantidade: deMilesimos(r.valor),
        ...(sub === '' ? {} : { substituto: sub }),
        ...(texto === '' ? {} : { texto }),
      },
      `Falta de ${qtd(r.valor)} de ${item.nome} registrada.`,
    );
    setAberto(false);
    setErro(null);
  };

  return (
    <li className="item">
      <div className="linha-item">
        <span className="descricao-item">
          <span className="quantidade">{qtd(item.quantidadeMilesimos)}</span> {item.nome}
          {item.faltouMilesimos > 0 ? <span className="etiqueta falta">Faltou {qtd(item.faltouMilesimos)}</span> : null}
        </span>
        <button
          type="button"
          className="botao secundario"
          aria-expanded={aberto}
          aria-controls={`${id}-falta`}
          disabled={restante === 0}
          onClick={() => {
            setAberto(!aberto);
            setQuantidade(formatarQuantidade(restante));
            setErro(null);
          }}
        >
          Faltou<span className="visualmente-oculto"> {item.nome}</span>
        </button>
      </div>
      {aberto ? (
        <form id={`${id}-falta`} className="formulario falta" onSubmit={enviar} noValidate>
          <div className="campo">
            <label htmlFor={`${id}-qtd`}>
              Quanto faltou de {item.nome} ({item.unidade})
            </label>
            <input
              id={`${id}-qtd`}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={quantidade}
              onChange={(e) => setQuantidade(e.target.value)}
              aria-invalid={erro !== null}
              aria-describedby={erro === null ? `${id}-qtd-ajuda` : `${id}-erro`}
            />
            <p id={`${id}-qtd-ajuda`} className="ajuda">
              Pedido: {qtd(item.quantidadeMilesimos)}.
            </p>
            {erro === null ? null : (
              <p id={`${id}-erro`} className="erro-campo" role="alert">
                {erro}
              </p>
            )}
          </div>
          <div className="campo">
            <label htmlFor={`${id}-sub`}>O que foi dado no lugar (opcional)</label>
            <input
              id={`${id}-sub`}
              type="text"
              maxLength={MAX_SUBSTITUTO}
              value={substituto}
              onChange={(e) => setSubstituto(e.target.value)}
            />
          </div>
          <div className="campo">
            <label htmlFor={`${id}-nota`}>Nota (opcional)</label>
            <input
              id={`${id}-nota`}
              type="text"
              maxLength={MAX_TEXTO}
              value={nota}
              onChange={(e) => setNota(e.target.value)}
            />
          </div>
          <p className="acoes">
            <button type="submit" className="botao">
              Registrar falta
            </button>
            <button type="button" className="botao secundario" onClick={() => setAberto(false)}>
              Cancelar
            </button>
          </p>
        </form>
      ) : null}
    </li>
  );
}

/** "24,50" from 2450 cents: how people type it. */
const digitavel = (centavos: number) => decimalLegivel(deCentavos(centavos));

function Pagamento({
  pedido,
  devido,
  pago,
  registrar,
}: {
  readonly pedido: PedidoNaRetirada;
  readonly devido: number;
  readonly pago: number;
  readonly registrar: Registrar;
}) {
  const id = useId();
  const [valor, setValor] = useState(() => (devido > 0 ? digitavel(devido) : ''));
  const [forma, setForma] = useState<FormaDePagamento>('dinheiro');
  const [erro, setErro] = useState<string | null>(null);
  const [verPix, setVerPix] = useState(false);
  const [copiado, setCopiado] = useState<string | null>(null);
  // The snapshot's Pix asks for the amount due when it was read; this device may know of payments since.
  const pix =
    pedido.pix === null || devido <= 0
      ? null
      : (pixComValor(pedido.pix, devido) ?? (devido === centavosDe(pedido.devido) ? pedido.pix : null));

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    const problema = erroDoValor(valor);
    const centavos = paraCentavos(valor);
    if (problema !== null || centavos === null) {
      setErro(problema ?? 'Escreva o valor como 24,50.');
      return;
    }
    if (centavos <= 0) {
      setErro('Escreva um valor maior que zero.');
      return;
    }
    if (centavos > MAXIMO_LANCAMENTO_CENTAVOS) {
      setErro('O valor é grande demais.');
      return;
    }
    setErro(null);
    registrar(
      { tipo: 'pagamento', valor: deCentavos(centavos), forma },
      `Pagamento de ${reaisDeCentavos(centavos)} ${FORMAS[forma]} registrado.`,
    );
    const resta = Math.max(0, devido - centavos);
    setValor(resta > 0 ? digitavel(resta) : '');
    setVerPix(false);
  };

  const copiar = async (texto: string) => {
    try {
      await navigator.clipboard.writeText(texto);
      setCopiado('Código Pix copiado.');
    } catch {
      setCopiado('Não foi possível copiar: selecione o código e copie.');
    }
  };

  return (
    <section aria-labelledby="titulo-pagamento" className="bloco">
      <h2 id="titulo-pagamento">Pagamento</h2>
      <dl className="valores-pedido">
        <div>
          <dt>Total do pedido</dt>
          <dd>{reaisDeCentavos(centavosDe(pedido.total))}</dd>
        </div>
        <div>
          <dt>Pago na retirada</dt>
          <dd>{reaisDeCentavos(pago)}</dd>
        </div>
        <div className="destaque">
          <dt>A pagar agora</dt>
          <dd>{reaisDeCentavos(devido)}</dd>
        </div>
      </dl>
      <p className="ajuda">Tudo o que a pessoa deve hoje, como no Pix dela: este pedido e o que ficou de antes.</p>
      {pix === null ? null : (
        <>
          <button type="button" className="botao secundario" aria-expanded={verPix} onClick={() => setVerPix(!verPix)}>
            {verPix ? 'Esconder o Pix' : `Mostrar o Pix de ${reaisDeCentavos(devido)}`}
          </button>
          {verPix ? (
            <div className="pix">
              <Suspense fallback={<p className="suave">Desenhando o QR…</p>}>
                <DesenhoDoQr texto={pix} rotulo={`QR do Pix de ${reaisDeCentavos(devido)}`} />
              </Suspense>
              <label htmlFor={`${id}-pix`}>Pix copia e cola</label>
              <textarea id={`${id}-pix`} readOnly value={pix} rows={3} onFocus={(e) => e.target.select()} />
              <button type="button" className="botao secundario" onClick={() => void copiar(pix)}>
                Copiar o código
              </button>
              {copiado === null ? null : (
                <p role="status" className="pequeno">
                  {copiado}
                </p>
              )}
            </div>
          ) : null}
        </>
      )}
      <form className="formulario pagamento" onSubmit={enviar} noValidate>
        <div className="campo">
          <label htmlFor={`${id}-valor`}>Valor recebido (R$)</label>
          <input
            id={`${id}-valor`}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={valor}
            onChange={(e) => setValor(e.target.value)}
            aria-invalid={erro !== null}
            aria-describedby={erro === null ? undefined : `${id}-erro`}
          />
          {erro === null ? null : (
            <p id={`${id}-erro`} className="erro-campo" role="alert">
              {erro}
            </p>
          )}
        </div>
        <fieldset className="formas">
          <legend>Forma</legend>
          {(['dinheiro', 'pix'] as const).map((f) => (
            <div className="campo caixa" key={f}>
              <input
                id={`${id}-${f}`}
                type="radio"
                name={`${id}-forma`}
                value={f}
                checked={forma === f}
                onChange={() => setForma(f)}
              />
              <label htmlFor={`${id}-${f}`}>
                {f === 'dinheiro' ? 'Dinheiro' : 'Pix (visto no celular de quem pagou)'}
              </label>
            </div>
          ))}
        </fieldset>
        <button type="submit" className="botao">
          Registrar pagamento
        </button>
      </form>
    </section>
  );
}

function Nota({ registrar }: { readonly registrar: Registrar }) {
  const id = useId();
  const [texto, setTexto] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const enviar = (e: FormEvent) => {
    e.preventDefault();
    const t = texto.trim();
    if (t === '') {
      setErro('Escreva a nota antes de guardar.');
      return;
    }
    setErro(null);
    registrar({ tipo: 'nota', texto: t.slice(0, MAX_TEXTO) }, 'Nota registrada.');
    setTexto('');
  };
  return (
    <section aria-labelledby="titulo-nota" className="bloco">
      <h2 id="titulo-nota">Nota</h2>
      <form className="formulario" onSubmit={enviar} noValidate>
        <div className="campo">
          <label htmlFor={`${id}-texto`}>Nota sobre este pedido</label>
          <textarea
            id={`${id}-texto`}
            rows={2}
            maxLength={MAX_TEXTO}
            value={texto}
            onChange={(e) => setTexto(e.target.value)}
            aria-invalid={erro !== null}
            aria-describedby={erro === null ? undefined : `${id}-erro`}
          />
          {erro === null ? null : (
            <p id={`${id}-erro`} className="erro-campo" role="alert">
              {erro}
            </p>
          )}
        </div>
        <button type="submit" className="botao">
          Guardar nota
        </button>
      </form>
    </section>
  );
}
