import { useId, useRef, useState, type FormEvent } from 'react';
import { ErroApi, mensagemDe } from '../api.ts';
import { Aviso, ComCarga, Falha, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { nomeDoTipo, type TipoMercado } from '../tipos-de-mercado.ts';
import { deCentavos, paraCentavos, reais } from '../dinheiro.ts';
import {
  confirmarPedido,
  fazerPedido,
  lerCiclo,
  lerMeuPedido,
  taxaSobre,
  type CestaDoCiclo,
  type Ciclo,
  type ItemDoCiclo,
  type LinhaPedida,
  type Pedido,
} from '../fluxo-consumidor.ts';
import {
  concordancia,
  dataBr,
  dataHoraBr,
  deMilesimos,
  paraMilesimos,
  quantidadeComUnidade,
  quantidadeLegivel,
  valorDaQuantidade,
} from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { useUsuarioLogado } from '../sessao.tsx';
import { Ponto, ResumoDoPedido, SituacaoDoPedido, taxaLegivel } from '../pedido-comum.tsx';

/** A basket or an item for sale, as one line of the form. */
type Oferta =
  | { readonly chave: string; readonly tipo: 'cesta'; readonly cesta: CestaDoCiclo; readonly mercado: string | null }
  | { readonly chave: string; readonly tipo: 'item'; readonly item: ItemDoCiclo; readonly mercado: string | null };

/** What a market sells in the cycle (mercado null: outside any market). */
interface Grupo {
  readonly chave: string;
  readonly nome: string | null;
  readonly tipo: TipoMercado | null;
  readonly taxa: string | null;
  readonly pontos: readonly string[];
  readonly ofertas: readonly Oferta[];
}

const chaveCesta = (id: string) => `c${id}`;
const chaveItem = (id: string) => `p${id}`;

function ofertasDo(ciclo: Ciclo): Oferta[] {
  return [
    ...ciclo.cestas.map((cesta): Oferta => ({
      chave: chaveCesta(cesta.cicloCestaId),
      tipo: 'cesta',
      cesta,
      mercado: cesta.mercado,
    })),
    ...ciclo.itens.map((item): Oferta => ({
      chave: chaveItem(item.cicloProdutoId),
      tipo: 'item',
      item,
      mercado: item.mercado,
    })),
  ];
}

/** The cycle's markets in their service order, each with what it sells; then what is sold outside markets. */
function gruposDo(ciclo: Ciclo): Grupo[] {
  const ofertas = ofertasDo(ciclo);
  const grupos: Grupo[] = ciclo.mercados.map((m) => ({
    chave: m.mercadoId,
    nome: m.nome,
    tipo: m.tipo,
    taxa: m.taxaAdministrativa,
    pontos: m.pontosEntrega.map((p) => p.nome),
    ofertas: ofertas.filter((o) => o.mercado === m.nome),
  }));
  const fora = ofertas.filter((o) => o.mercado === null || !ciclo.mercados.some((m) => m.nome === o.mercado));
  if (fora.length > 0) grupos.push({ chave: 'fora', nome: null, tipo: null, taxa: null, pontos: [], ofertas: fora });
  return grupos;
}

/** What an order holds of each line, in thousandths. */
function quantidadesDo(pedido: Pedido | null): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of pedido?.produtos ?? []) {
    const chave = l.cicloCestaId !== null ? chaveCesta(l.cicloCestaId) : chaveItem(l.cicloProdutoId ?? '');
    m.set(chave, paraMilesimos(l.quantidade) ?? 0);
  }
  return m;
}

function textosDo(pedido: Pedido | null): Record<string, string> {
  return Object.fromEntries(
    [...quantidadesDo(pedido)].map(([chave, mil]) => [chave, quantidadeLegivel(deMilesimos(mil))]),
  );
}

/** The quantity typed in a line, in thousandths (0 when blank), or the reason it is not one. */
function lerQuantidade(o: Oferta, texto: string | undefined): { mil: number } | { erro: string } {
  const t = (texto ?? '').trim();
  if (t === '') return { mil: 0 };
  if (o.tipo === 'cesta')
    return /^\d{1,4}$/.test(t) ? { mil: Number(t) * 1000 } : { erro: 'Use um número inteiro de cestas, como 2' };
  const mil = paraMilesimos(t);
  return mil === null ? { erro: `Use até 3 casas decimais, como 1,5 (${o.item.unidade})` } : { mil };
}

const precoDe = (o: Oferta): number => paraCentavos(o.tipo === 'cesta' ? o.cesta.valor : o.item.valor) ?? 0;
const nomeDe = (o: Oferta): string => (o.tipo === 'cesta' ? o.cesta.nome : o.item.nome);
/** What is left for everyone else, in thousandths. */
const disponivelDe = (o: Oferta): number =>
  o.tipo === 'cesta' ? o.cesta.disponivel * 1000 : (paraMilesimos(o.item.disponivel) ?? 0);
/** What is left, with its unit: "5 dúzias", "1 cesta"; `comVerbo` says "restam 5 dúzias", "resta 1 maço". */
const restam = (o: Oferta, mil: number, comVerbo = false): string =>
  `${comVerbo ? `${concordancia(mil, 'resta', 'restam')} ` : ''}${quantidadeComUnidade(deMilesimos(mil), o.tipo === 'cesta' ? 'cesta' : o.item.unidade)}`;

function LinhaOferta({
  oferta,
  texto,
  erro,
  mudar,
  somenteLeitura,
  jaPedido,
}: {
  readonly oferta: Oferta;
  readonly texto: string;
  readonly erro: string | undefined;
  readonly mudar: (t: string) => void;
  readonly somenteLeitura: boolean;
  readonly jaPedido: number;
}) {
  const id = useId();
  const nome = nomeDe(oferta);
  const emComposicao = oferta.tipo === 'cesta' && oferta.cesta.emComposicao && jaPedido === 0;
  const descricao = [erro === undefined ? null : `${id}-erro`, `${id}-resta`].filter((x) => x !== null).join(' ');
  return (
    <tr className={erro === undefined ? undefined : 'com-erro'}>
      <th scope="row" data-rotulo={oferta.tipo === 'cesta' ? 'Cesta' : 'Item'}>
        {nome}{' '}
        {oferta.tipo === 'cesta' ? (
          <span className="etiqueta fase">cesta</span>
        ) : (
          <span className="suave">({oferta.item.unidade})</span>
        )}
        {oferta.tipo === 'cesta' && oferta.cesta.composicao.length > 0 ? (
          <ul className="composicao" aria-label={`O que vem em ${nome}`}>
            {oferta.cesta.composicao.map((c) => (
              <li key={c.produto}>
                {c.produto}: {quantidadeComUnidade(c.quantidade, c.unidade)}
              </li>
            ))}
          </ul>
        ) : null}
        {oferta.tipo === 'cesta' && oferta.cesta.descricao !== null ? (
          <p className="suave pequeno">{oferta.cesta.descricao}</p>
        ) : null}
      </th>
      <td data-rotulo="Preço" className="numero">
        {reais(oferta.tipo === 'cesta' ? oferta.cesta.valor : oferta.item.valor)}
        {oferta.tipo === 'item' ? ` / ${oferta.item.unidade}` : null}
      </td>
      <td data-rotulo="Disponível" className="numero" id={`${id}-resta`}>
        {emComposicao
          ? 'em composição'
          : disponivelDe(oferta) === 0
            ? 'esgotado'
            : restam(oferta, disponivelDe(oferta), true)}
      </td>
      <td data-rotulo="Quantidade">
        {somenteLeitura || emComposicao ? (
          <span>{jaPedido === 0 ? '—' : `${quantidadeLegivel(deMilesimos(jaPedido))} no pedido`}</span>
        ) : (
          <>
            <label htmlFor={id} className="visualmente-oculto">
              Quantidade de {nome} ({oferta.tipo === 'cesta' ? 'cestas' : oferta.item.unidade})
            </label>
            <input
              id={id}
              className="quantidade"
              type="text"
              inputMode={oferta.tipo === 'cesta' ? 'numeric' : 'decimal'}
              autoComplete="off"
              value={texto}
              placeholder="0"
              onChange={(e) => mudar(e.target.value)}
              aria-invalid={erro !== undefined}
              aria-describedby={descricao}
            />
            {erro === undefined ? null : (
              <p className="erro-campo" id={`${id}-erro`}>
                {erro}
              </p>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

function TabelaDoGrupo(props: {
  readonly grupo: Grupo;
  readonly textos: Readonly<Record<string, string>>;
  readonly erros: ReadonlyMap<string, string>;
  readonly mudar: (chave: string, t: string) => void;
  readonly somenteLeitura: boolean;
  readonly salvo: ReadonlyMap<string, number>;
}) {
  const { grupo } = props;
  const titulo = grupo.nome === null ? 'Da comunidade (sem mercado)' : grupo.nome;
  return (
    <section className="grupo" aria-labelledby={`grupo-${grupo.chave}`}>
      <h2 id={`grupo-${grupo.chave}`}>{titulo}</h2>
      <p className="suave">
        {grupo.tipo === null
          ? 'Taxa da comunidade, calculada ao salvar.'
          : `${nomeDoTipo(grupo.tipo)} · ${taxaLegivel(grupo.taxa)}`}
        {grupo.pontos.length > 0 ? ` · retirada em: ${grupo.pontos.join(', ')}` : null}
      </p>
      {grupo.ofertas.length === 0 ? (
        <p className="suave">Nada à venda neste mercado por enquanto.</p>
      ) : (
        <table className="tabela vitrine">
          <caption className="visualmente-oculto">À venda em {titulo}</caption>
          <thead>
            <tr>
              <th scope="col">Produto</th>
              <th scope="col" className="numero">
                Preço
              </th>
              <th scope="col" className="numero">
                Disponível
              </th>
              <th scope="col">Quantidade</th>
            </tr>
          </thead>
          <tbody>
            {grupo.ofertas.map((o) => (
              <LinhaOferta
                key={o.chave}
                oferta={o}
                texto={props.textos[o.chave] ?? ''}
                erro={props.erros.get(o.chave)}
                mudar={(t) => props.mudar(o.chave, t)}
                somenteLeitura={props.somenteLeitura}
                jaPedido={props.salvo.get(o.chave) ?? 0}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A preview of the totals from the prices shown; the server's figures come with the saved order. */
function Estimativa({
  grupos,
  quantidades,
}: {
  readonly grupos: readonly Grupo[];
  readonly quantidades: ReadonlyMap<string, number>;
}) {
  const partes = grupos.flatMap((g) => {
    const subtotal = g.ofertas.reduce((s, o) => s + valorDaQuantidade(precoDe(o), quantidades.get(o.chave) ?? 0), 0);
    if (subtotal === 0) return [];
    const taxa = g.tipo === null ? null : taxaSobre(subtotal, paraCentavos(g.taxa ?? '0') ?? 0);
    return [{ chave: g.chave, nome: g.nome ?? 'Da comunidade', subtotal, taxa }];
  });
  const total = partes.reduce((s, p) => s + p.subtotal + (p.taxa ?? 0), 0);
  return (
    <section className="estimativa" aria-labelledby="titulo-estimativa">
      <h2 id="titulo-estimativa">Estimativa</h2>
      {partes.length === 0 ? (
        <p className="suave">Escolha as quantidades acima.</p>
      ) : (
        <>
          <ul className="lista-simples">
            {partes.map((p) => (
              <li key={p.chave}>
                <strong>{p.nome}</strong>: {reais(deCentavos(p.subtotal))} + taxa{' '}
                {p.taxa === null ? 'da comunidade (calculada ao salvar)' : reais(deCentavos(p.taxa))}
              </li>
            ))}
          </ul>
          <p aria-live="polite">
            <strong>Total estimado: {reais(deCentavos(total))}</strong>
          </p>
          <p className="suave pequeno">
            É uma estimativa com os preços de agora. O valor certo, com a taxa de cada mercado, aparece ao salvar o
            pedido.
          </p>
        </>
      )}
    </section>
  );
}

/**
 * The order's total and its confirm button, stuck to the bottom of the screen while the order
 * waits for (re)confirmation: "Confirmar de novo" is at hand however far down the page goes. It
 * sits last in the form, so at the page's end it takes its own place and covers nothing.
 */
function BarraDeConfirmar({
  pedido,
  mudou,
  ocupado,
  confirmar,
}: {
  readonly pedido: Pedido;
  readonly mudou: boolean;
  readonly ocupado: 'salvando' | 'confirmando' | null;
  readonly confirmar: () => void;
}) {
  return (
    <div className="barra-salvar fixa barra-confirmar" role="region" aria-label="Confirmar o pedido">
      <p aria-live="polite">
        {mudou ? (
          'Salve as alterações antes de confirmar.'
        ) : (
          <>
            <strong>{pedido.alteradoAposConfirmar ? 'Falta confirmar de novo' : 'Falta confirmar'}</strong> · Total:{' '}
            <strong className="valor">{reais(pedido.totalComTaxa)}</strong>
          </>
        )}
      </p>
      {/* Never disabled: a disabled button would drop the keyboard focus; a click while busy or with unsaved changes is ignored. */}
      <button type="button" className="botao" onClick={confirmar} aria-disabled={ocupado !== null || mudou}>
        {ocupado === 'confirmando'
          ? 'Confirmando…'
          : pedido.alteradoAposConfirmar
            ? 'Confirmar de novo'
            : 'Confirmar pedido'}
      </button>
    </div>
  );
}

function Formulario({
  cicloInicial,
  pedidoInicial,
}: {
  readonly cicloInicial: Ciclo;
  readonly pedidoInicial: Pedido | null;
}) {
  const [ciclo, setCiclo] = useState(cicloInicial);
  const [pedido, setPedido] = useState(pedidoInicial);
  const [textos, setTextos] = useState<Record<string, string>>(() => textosDo(pedidoInicial));
  const [ponto, setPonto] = useState<string>(
    () =>
      pedidoInicial?.pontoEntrega.id ??
      (cicloInicial.pontosEntrega.length === 1 ? (cicloInicial.pontosEntrega[0]?.id ?? '') : ''),
  );
  const [erros, setErros] = useState<ReadonlyMap<string, string>>(new Map());
  const [erroPonto, setErroPonto] = useState<string | null>(null);
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [feito, setFeito] = useState<'salvo' | 'confirmado' | null>(null);
  const [ocupado, setOcupado] = useState<'salvando' | 'confirmando' | null>(null);
  const idPonto = useId();
  const confirmado = useRef<HTMLDivElement>(null);

  const grupos = gruposDo(ciclo);
  const ofertas = grupos.flatMap((g) => g.ofertas);
  const salvo = quantidadesDo(pedido);
  const quantidades = new Map<string, number>();
  for (const o of ofertas) {
    const q = lerQuantidade(o, textos[o.chave]);
    if ('mil' in q && q.mil > 0) quantidades.set(o.chave, q.mil);
  }
  const mudou =
    pedido === null ||
    ponto !== pedido.pontoEntrega.id ||
    ofertas.some((o) => (quantidades.get(o.chave) ?? 0) !== (salvo.get(o.chave) ?? 0));

  const mudar = (chave: string, t: string) => {
    setTextos((atual) => ({ ...atual, [chave]: t }));
    setFeito(null);
  };

  const salvar = async () => {
    if (ocupado !== null) return;
    setErroGeral(null);
    setErroPonto(null);
    setFeito(null);
    const locais = new Map<string, string>();
    for (const o of ofertas) {
      const q = lerQuantidade(o, textos[o.chave]);
      if ('erro' in q) locais.set(o.chave, q.erro);
    }
    setErros(locais);
    if (locais.size > 0) {
      setErroGeral('Há quantidades a corrigir nas linhas marcadas. Nada foi gravado.');
      return;
    }
    const pedidas = ofertas.filter((o) => (quantidades.get(o.chave) ?? 0) > 0);
    if (pedidas.length === 0) {
      setErroGeral('Escolha ao menos uma cesta ou um item.');
      return;
    }
    if (ponto === '') {
      setErroPonto('Escolha onde vai retirar o pedido.');
      setErroGeral('Escolha o ponto de retirada.');
      return;
    }
    const linhas: LinhaPedida[] = pedidas.map((o) => {
      const mil = quantidades.get(o.chave) ?? 0;
      return o.tipo === 'cesta'
        ? { cicloCestaId: o.cesta.cicloCestaId, quantidade: String(mil / 1000) }
        : { cicloProdutoId: o.item.cicloProdutoId, quantidade: deMilesimos(mil) };
    });
    setOcupado('salvando');
    try {
      const novo = await fazerPedido(ciclo.id, ponto, linhas);
      setPedido(novo);
      setTextos(textosDo(novo));
      setFeito('salvo');
      // What is left changed with this order: read it again (the form keeps what was typed).
      setCiclo((await lerCiclo(ciclo.id)) ?? ciclo);
    } catch (e) {
      await recusado(e, pedidas);
    } finally {
      setOcupado(null);
    }
  };

  /** A refusal: field errors on their inputs (input.produtos[2].quantidade); a short stock says what is left. */
  const recusado = async (e: unknown, pedidas: readonly Oferta[]) => {
    const porLinha = new Map<string, string>();
    let noPonto = false;
    if (e instanceof ErroApi) {
      for (const [caminho, mensagem] of Object.entries(e.campos)) {
        const i = /^input\.produtos\[(\d+)\]/.exec(caminho)?.[1];
        const linha = i === undefined ? undefined : pedidas[Number(i)];
        if (linha !== undefined) porLinha.set(linha.chave, mensagem);
        else if (caminho === 'input.pontoEntregaId') {
          setErroPonto(mensagem);
          noPonto = true;
        }
      }
    }
    if (e instanceof ErroApi && e.codigo === 'CONFLICT') {
      // The figures on the page are old: read what is left now and mark the lines above it.
      const atual = await lerCiclo(ciclo.id).catch(() => null);
      if (atual !== null) {
        setCiclo(atual);
        for (const o of ofertasDo(atual)) {
          const livre = disponivelDe(o) + (salvo.get(o.chave) ?? 0);
          const pedido = quantidades.get(o.chave) ?? 0;
          if (pedido > livre)
            porLinha.set(o.chave, livre === 0 ? 'Esgotado: não há mais' : `Só há ${restam(o, livre)} para você`);
        }
      }
    }
    setErros(porLinha);
    // Field errors sit on their inputs (other keys of the refusal are its data, such as pontosQueServem).
    const anexados = e instanceof ErroApi && e.codigo !== 'CONFLICT' && (porLinha.size > 0 || noPonto);
    setErroGeral(
      anexados
        ? 'O servidor recusou o pedido por causa dos campos marcados. Nada foi gravado.'
        : `${mensagemDe(e).replace(/\.$/, '')}. Nada foi gravado.`,
    );
  };

  const confirmar = async () => {
    if (pedido === null || ocupado !== null || mudou) return;
    setErroGeral(null);
    setFeito(null);
    setOcupado('confirmando');
    try {
      setPedido(await confirmarPedido(pedido.id));
      setFeito('confirmado');
      // The bar and its button are gone: the keyboard goes on from the confirmation.
      confirmado.current?.focus();
    } catch (e) {
      setErroGeral(mensagemDe(e));
    } finally {
      setOcupado(null);
    }
  };

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    void salvar();
  };

  return (
    <form onSubmit={enviar} noValidate aria-label={`Pedido em ${ciclo.nome}`}>
      <p className="suave">
        Pedidos até {dataBr(ciclo.dataPedidoFim)}. Digite as quantidades (itens na unidade do produto, até 3 casas, como
        1,5; cestas inteiras) e salve; depois, confirme o pedido.
      </p>
      {pedido === null ? null : (
        <div className="resumo-topo">
          <SituacaoDoPedido pedido={pedido} />
          <p>
            Total salvo: <strong>{reais(pedido.totalComTaxa)}</strong> · <a href="#meu-pedido">ver o pedido salvo</a>
          </p>
        </div>
      )}
      {grupos.every((g) => g.ofertas.length === 0) ? (
        <Aviso>Ainda não há nada à venda neste ciclo. Volte mais tarde.</Aviso>
      ) : null}
      {grupos.map((g) => (
        <TabelaDoGrupo
          key={g.chave}
          grupo={g}
          textos={textos}
          erros={erros}
          mudar={mudar}
          somenteLeitura={false}
          salvo={salvo}
        />
      ))}
      <fieldset
        className={erroPonto === null ? 'pontos' : 'pontos com-erro'}
        aria-describedby={erroPonto === null ? undefined : `${idPonto}-erro`}
      >
        <legend>Onde retirar</legend>
        {ciclo.pontosEntrega.length === 0 ? (
          <p className="suave">Este ciclo ainda não tem pontos de retirada.</p>
        ) : null}
        {ciclo.pontosEntrega.map((p) => (
          <div className="campo caixa ponto" key={p.id}>
            <input
              type="radio"
              id={`${idPonto}-${p.id}`}
              name="ponto"
              value={p.id}
              checked={ponto === p.id}
              onChange={() => {
                setPonto(p.id);
                setErroPonto(null);
                setFeito(null);
              }}
            />
            <label htmlFor={`${idPonto}-${p.id}`}>
              <Ponto ponto={p} />
            </label>
          </div>
        ))}
        {erroPonto === null ? null : (
          <p className="erro-campo" id={`${idPonto}-erro`}>
            {erroPonto}
          </p>
        )}
      </fieldset>
      {mudou ? <Estimativa grupos={grupos} quantidades={quantidades} /> : null}
      {erroGeral === null ? null : <Falha mensagem={erroGeral} />}
      {feito === 'salvo' ? <Sucesso>Pedido salvo. Confira os valores abaixo e confirme o pedido.</Sucesso> : null}
      <div ref={confirmado} tabIndex={-1} className="foco-da-mensagem">
        {feito === 'confirmado' && pedido !== null ? (
          <Sucesso>
            Pedido confirmado em {pedido.dataConfirmacao === null ? '—' : dataHoraBr(pedido.dataConfirmacao)}.{' '}
            <Link para="/pedidos">Pagar com Pix em Meus pedidos</Link> (um só Pix paga tudo o que você deve).
          </Sucesso>
        ) : null}
      </div>
      <div className="barra-salvar">
        <p aria-live="polite">
          {mudou
            ? pedido === null
              ? 'Pedido ainda não salvo.'
              : 'Há alterações ainda não salvas.'
            : 'Nenhuma alteração por salvar.'}
        </p>
        {/* Never disabled: a disabled button would drop the keyboard focus while saving; a second submit is ignored. */}
        <button type="submit" className="botao" aria-disabled={ocupado !== null}>
          {ocupado === 'salvando' ? 'Salvando…' : 'Salvar pedido'}
        </button>
      </div>
      {pedido === null ? null : (
        <section className="meu-pedido" id="meu-pedido" aria-labelledby="titulo-meu-pedido">
          <h2 id="titulo-meu-pedido">Seu pedido salvo</h2>
          <SituacaoDoPedido pedido={pedido} />
          <ResumoDoPedido pedido={pedido} titulo="Seu pedido salvo" />
        </section>
      )}
      {/* While the order waits for (re)confirmation, the button stays in view at the bottom of the screen. */}
      {pedido === null || pedido.finalizado ? null : (
        <BarraDeConfirmar pedido={pedido} mudou={mudou} ocupado={ocupado} confirmar={() => void confirmar()} />
      )}
    </form>
  );
}

/** The order, read only: the order window is closed, or the person may not order in this cycle. */
function SomenteLeitura({ ciclo, pedido }: { readonly ciclo: Ciclo; readonly pedido: Pedido | null }) {
  const fechada = !ciclo.janelasAbertas.includes('pedido');
  return (
    <>
      <Aviso>
        {fechada
          ? `A janela de pedidos deste ciclo vai de ${dataBr(ciclo.dataPedidoInicio)} a ${dataBr(ciclo.dataPedidoFim)} e não está aberta agora: o pedido só pode ser visto.`
          : 'Você não pode fazer pedidos neste ciclo: o pedido só pode ser visto.'}
      </Aviso>
      {pedido === null ? (
        <p>Você não fez pedido neste ciclo.</p>
      ) : (
        <section aria-labelledby="titulo-meu-pedido">
          <h2 id="titulo-meu-pedido">Seu pedido</h2>
          <SituacaoDoPedido pedido={pedido} />
          <ResumoDoPedido pedido={pedido} titulo="Seu pedido" />
        </section>
      )}
      {gruposDo(ciclo).map((g) => (
        <TabelaDoGrupo
          key={g.chave}
          grupo={g}
          textos={{}}
          erros={new Map()}
          mudar={() => undefined}
          somenteLeitura
          salvo={quantidadesDo(pedido)}
        />
      ))}
    </>
  );
}

/** /ciclos/:id/pedido: the cycle's baskets and items by market, the quantities, the pickup point; save, then confirm. */
export function FazerPedido({ id }: { readonly id: string }) {
  const usuario = useUsuarioLogado();
  const { estado, recarregar } = useCarga(async () => {
    const ciclo = await lerCiclo(id);
    if (ciclo === null || !usuario.acoes.pedir) return { ciclo, pedido: null, erroPedido: null };
    try {
      return { ciclo, pedido: await lerMeuPedido(id), erroPedido: null };
    } catch (e) {
      return { ciclo, pedido: null, erroPedido: mensagemDe(e) };
    }
  }, [id, usuario.acoes.pedir]);
  const nome = estado.fase === 'pronto' ? estado.dados.ciclo?.nome : undefined;
  return (
    <Pagina titulo={nome === undefined ? 'Fazer pedido' : `Pedido em ${nome}`}>
      <p>
        <Link para="/ciclos">← Todos os ciclos</Link>
      </p>
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ ciclo, pedido, erroPedido }) =>
          ciclo === null ? (
            <div className="alerta" role="alert">
              <p>Ciclo não encontrado.</p>
            </div>
          ) : erroPedido !== null ? (
            <Falha mensagem={erroPedido} tentarDeNovo={recarregar} />
          ) : ciclo.acoes.pedir ? (
            <Formulario cicloInicial={ciclo} pedidoInicial={pedido} />
          ) : (
            <SomenteLeitura ciclo={ciclo} pedido={pedido} />
          )
        }
      </ComCarga>
    </Pagina>
  );
}
