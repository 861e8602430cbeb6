/**
 * A point's pickup: the list of its orders (search by name or by the receipt's QR, how many were
 * picked up, what waits to be sent, what the server did not accept), and an order opened
 * (pedido.tsx). Everything reads the device's copy: it works the same with no network.
 */
import {
  Suspense,
  lazy,
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link, navegar } from '../mercados/navegacao.tsx';
import { reaisDeCentavos } from '../mercados/dinheiro.ts';
import { quantidadeLegivel } from '../mercados/formatos.ts';
import { SemRede, SessaoExpirada, Titulo, acoes, diaEHora, hora, quandoRetirar } from './comum.tsx';
import {
  casaComTermos,
  pedidoDoQr,
  registrosPorPedido,
  semAcentos,
  situacaoDoPedido,
  termosDaBusca,
  type Registro,
  type Situacao,
} from './estado.ts';
import { PaginaDoPedido, descreverAcao } from './pedido.tsx';
import { usePonto, useConexao, type Ponto } from './sincronia.ts';
import type { PedidoNaRetirada, RetiradaDoPonto } from './tipos.ts';

const LeitorDeQr = lazy(() => import('./qr.tsx'));

const ID = /^[0-9]{1,10}$/;

export function PaginaDoPonto({
  cicloId,
  pontoId,
  pedidoId,
}: {
  readonly cicloId: string;
  readonly pontoId: string;
  readonly pedidoId: string | null;
}) {
  if (!ID.test(cicloId) || !ID.test(pontoId) || (pedidoId !== null && !ID.test(pedidoId)))
    return (
      <>
        <Titulo texto="Endereço inválido">Endereço inválido</Titulo>
        <p>
          <a href="/retirada">Ver os pontos de retirada</a>
        </p>
      </>
    );
  return <PontoAberto cicloId={cicloId} pontoId={pontoId} pedidoId={pedidoId} />;
}

/** "Cesta Média · 2× Cesta Pequena · 2 extras": what the order has, in a line. */
export function resumoDoPedido(p: PedidoNaRetirada): string {
  const cestas = p.itens
    .filter((i) => i.tipo === 'cesta')
    .map((i) => (i.quantidade === '1.000' ? i.nome : `${quantidadeLegivel(i.quantidade)}× ${i.nome}`));
  const extras = p.itens.filter((i) => i.tipo !== 'cesta').length;
  const partes = [...cestas];
  if (extras > 0) partes.push(`${extras} ${extras === 1 ? 'extra' : 'extras'}`);
  return partes.length === 0 ? 'Sem itens' : partes.join(' · ');
}

function PontoAberto({
  cicloId,
  pontoId,
  pedidoId,
}: {
  readonly cicloId: string;
  readonly pontoId: string;
  readonly pedidoId: string | null;
}) {
  const p = usePonto(cicloId, pontoId);
  const online = useConexao();
  // The search stays while an order is open: back at the list, it is as it was left.
  const [filtro, setFiltro] = useState<Filtro>({ busca: '', soFaltam: false });
  const caminho = `/retirada/${cicloId}/${pontoId}`;
  const aqui = pedidoId === null ? caminho : `${caminho}/pedido/${pedidoId}`;
  const registros = useMemo(
    () => (p.dados === null ? new Map<string, Registro[]>() : registrosPorPedido(p.dados, p.locais)),
    [p.dados, p.locais],
  );
  // Kept here, above the list: going back to it from an order neither sorts nor computes again.
  const pedidos = p.dados?.pedidos;
  const indice = useMemo(() => {
    const colacao = new Intl.Collator('pt-BR', { sensitivity: 'base' });
    return [...(pedidos ?? [])]
      .sort((a, b) => colacao.compare(a.pessoa, b.pessoa) || Number(a.id) - Number(b.id))
      .map((pedido) => ({ pedido, nome: semAcentos(pedido.pessoa) }));
  }, [pedidos]);
  const situacoes = useSituacoes(pedidos, registros);
  const faixas = (
    <>
      {online ? null : <SemRede />}
      {p.problema?.tipo === 'sessao' ? <SessaoExpirada esperando={p.locais.fila.length} caminho={aqui} /> : null}
      {p.problema?.tipo === 'erro' ? (
        <div className="alerta" role="alert">
          <p>{p.problema.mensagem}</p>
        </div>
      ) : null}
    </>
  );

  if (!p.carregado)
    return (
      <p className="carregando" role="status">
        <span className="girando" aria-hidden="true" /> Abrindo o ponto…
      </p>
    );
  if (p.dados === null)
    return (
      <>
        <Titulo texto="Retirada">Retirada</Titulo>
        {faixas}
        {p.enviando ? (
          <p className="carregando" role="status">
            <span className="girando" aria-hidden="true" /> Carregando os pedidos do ponto para usar sem internet…
          </p>
        ) : online ? null : (
          <div className="aviso" role="status">
            <p>
              <strong>Este ponto ainda não foi aberto neste aparelho.</strong> Abra-o uma vez com internet: depois ele
              funciona aqui mesmo sem sinal.
            </p>
          </div>
        )}
        <p>
          <Link para="/retirada">Ver os pontos de retirada</Link>
        </p>
      </>
    );

  if (pedidoId !== null) {
    const pedido = p.dados.pedidos.find((x) => x.id === pedidoId);
    return (
      <>
        <p className="voltar">
          <Link para={caminho}>← Voltar à lista de {p.dados.pontoNome}</Link>
        </p>
        {faixas}
        {pedido === undefined ? (
          <>
            <Titulo texto="Pedido não encontrado">Pedido não encontrado</Titulo>
            <p>Este pedido não está entre os pedidos confirmados deste ponto neste ciclo.</p>
          </>
        ) : (
          <PaginaDoPedido pedido={pedido} dados={p.dados} registros={registros.get(pedido.id) ?? []} ponto={p} />
        )}
        <BarraDaFila ponto={p} online={online} fixa />
      </>
    );
  }
  return (
    <ListaDoPonto
      dados={p.dados}
      ponto={p}
      faixas={faixas}
      online={online}
      caminho={caminho}
      filtro={filtro}
      setFiltro={setFiltro}
      indice={indice}
      situacoes={situacoes}
    />
  );
}

/** How many actions wait, and the button that sends them now; `fixa`: kept in view at the bottom while some wait. */
function BarraDaFila({
  ponto,
  online,
  fixa = false,
}: {
  readonly ponto: Ponto;
  readonly online: boolean;
  readonly fixa?: boolean;
}) {
  const n = ponto.locais.fila.length;
  // Made under another account on this phone: they wait for that person (sincronia.ts).
  const alheias = ponto.locais.fila.filter((a) => a.conta !== null && ponto.conta !== null && a.conta !== ponto.conta);
  return (
    <div className={`barra-fila${n > 0 ? ' com-fila' : ''}${fixa && n > 0 ? ' fixa' : ''}`}>
      <p role="status" aria-live="polite" className="contador-fila">
        {ponto.enviando && n > 0
          ? `Enviando ${acoes(n)}…`
          : n > 0
            ? `${acoes(n)} esperando envio`
            : ponto.recebidaEm === null
              ? 'Nada esperando envio'
              : `Tudo enviado · atualizado às ${hora(ponto.recebidaEm)}`}
      </p>
      <button
        type="button"
        className="botao secundario"
        onClick={ponto.enviarAgora}
        disabled={ponto.enviando || !online}
        aria-describedby={online ? undefined : 'sem-rede-envio'}
      >
        {n > 0 ? 'Enviar agora' : 'Atualizar'}
      </button>
      {alheias.length === 0 ? null : (
        <p className="pequeno">
          {acoes(alheias.length)} {alheias.length === 1 ? 'foi feita' : 'foram feitas'} neste aparelho por{' '}
          {[...new Set(alheias.map((a) => a.quem))].join(', ')}: {alheias.length === 1 ? 'vai' : 'vão'} quando essa
          pessoa entrar de novo.
        </p>
      )}
      {online ? null : (
        <p id="sem-rede-envio" className="pequeno suave">
          Sem internet: o envio acontece sozinho quando a conexão voltar.
        </p>
      )}
    </div>
  );
}

function NaoAceitas({ ponto, dados }: { readonly ponto: Ponto; readonly dados: RetiradaDoPonto }) {
  const lista = ponto.locais.recusadas;
  if (lista.length === 0) return null;
  const nomes = new Map(dados.pedidos.map((x) => [x.id, x.pessoa]));
  return (
    <section className="nao-aceitas" aria-labelledby="titulo-nao-aceitas">
      <h2 id="titulo-nao-aceitas">Não aceitas ({lista.length})</h2>
      <p>O servidor não aceitou estas ações; elas não valem. Confira e, se for o caso, registre de novo.</p>
      <ul>
        {lista.map((r) => (
          <li key={r.acao.chave}>
            <strong>{nomes.get(r.acao.pedidoId) ?? `Pedido ${r.acao.pedidoId}`}</strong>: {descreverAcao(r.acao, dados)}{' '}
            ({diaEHora(r.acao.feitoEm)})<br />
            <span className="motivo">{r.mensagem}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="botao secundario" onClick={ponto.esquecerRecusadas}>
        Entendi, tirar da lista
      </button>
    </section>
  );
}

/**
 * Each order's situation, computed again only when its own records change: its card in the list
 * keeps the same props and is not redrawn when another order changes.
 */
function useSituacoes(
  pedidos: readonly PedidoNaRetirada[] | undefined,
  registros: ReadonlyMap<string, readonly Registro[]>,
): ReadonlyMap<string, Situacao> {
  const anteriores = useRef(new Map<string, { chave: string; pedido: PedidoNaRetirada; situacao: Situacao }>());
  return useMemo(() => {
    const novas = new Map<string, { chave: string; pedido: PedidoNaRetirada; situacao: Situacao }>();
    for (const x of pedidos ?? []) {
      const chave = chaveDaSituacao(registros.get(x.id));
      const antes = anteriores.current.get(x.id);
      novas.set(
        x.id,
        antes !== undefined && antes.chave === chave && antes.pedido === x
          ? antes
          : { chave, pedido: x, situacao: situacaoDoPedido(x, registros.get(x.id)) },
      );
    }
    anteriores.current = novas;
    return new Map([...novas].map(([id, v]) => [id, v.situacao]));
  }, [pedidos, registros]);
}

/** Where the list was scrolled to, per point, so coming back from an order lands on the same place. */
const rolagem = new Map<string, { y: number; pedido: string | null; limite: number }>();

interface Filtro {
  readonly busca: string;
  readonly soFaltam: boolean;
}

/**
 * Orders drawn at a time: a point may have hundreds, and drawing them all would make each tap on
 * a slow phone wait for the whole list. More come as the list is scrolled (or with the button).
 */
const POR_VEZ = 40;

/** What an order's card shows, as a key: the card is drawn again only when it changes. */
function chaveDaSituacao(registros: readonly Registro[] | undefined): string {
  return (registros ?? []).map((r) => `${r.chave}:${r.origem}`).join(',');
}

function ListaDoPonto({
  dados,
  ponto,
  faixas,
  online,
  caminho,
  filtro,
  setFiltro,
  indice,
  situacoes,
}: {
  readonly dados: RetiradaDoPonto;
  readonly ponto: Ponto;
  readonly faixas: ReactNode;
  readonly online: boolean;
  readonly caminho: string;
  readonly filtro: Filtro;
  readonly setFiltro: (f: Filtro) => void;
  readonly indice: ReadonlyArray<{ readonly pedido: PedidoNaRetirada; readonly nome: string }>;
  readonly situacoes: ReadonlyMap<string, Situacao>;
}) {
  const { busca, soFaltam } = filtro;
  const [limite, setLimite] = useState(() => rolagem.get(caminho)?.limite ?? POR_VEZ);
  // Read when an order is opened, without redrawing every card each time more are shown.
  const limiteAtual = useRef(limite);
  useEffect(() => {
    limiteAtual.current = limite;
  }, [limite]);
  const filtrar = (f: Filtro) => {
    setFiltro(f);
    setLimite(POR_VEZ);
  };
  const [lendo, setLendo] = useState(false);
  const [avisoQr, setAvisoQr] = useState<string | null>(null);
  const campo = useRef<HTMLInputElement>(null);

  const retirados = [...situacoes.values()].filter((s) => s.retirada !== null).length;
  const termos = termosDaBusca(busca);
  const visiveis = indice
    .filter(
      ({ pedido: x, nome }) =>
        casaComTermos(x.id, nome, termos) && (!soFaltam || situacoes.get(x.id)?.retirada === null),
    )
    .map((i) => i.pedido);

  // More orders as the end of the list comes near.
  const fim = useRef<HTMLLIElement>(null);
  const restantes = visiveis.length - limite;
  useEffect(() => {
    const alvo = fim.current;
    if (alvo === null || restantes <= 0 || typeof IntersectionObserver === 'undefined') return;
    const observador = new IntersectionObserver(
      (vistos) => {
        if (vistos.some((v) => v.isIntersecting)) setLimite((l) => l + POR_VEZ);
      },
      { rootMargin: '800px 0px' },
    );
    observador.observe(alvo);
    return () => observador.disconnect();
  }, [restantes]);
  // The button (a keyboard, or a phone without the observer): the focus goes to the first card it
  // drew, not lost with the button when the last ones come.
  const primeiroNovo = useRef<string | null>(null);
  const mostrarMais = () => {
    primeiroNovo.current = visiveis[limite]?.id ?? null;
    setLimite((l) => l + POR_VEZ);
  };
  useEffect(() => {
    const id = primeiroNovo.current;
    if (id === null) return;
    primeiroNovo.current = null;
    document.getElementById(`pedido-${id}`)?.focus();
  }, [limite]);

  // Back from an order: the list where it was, and the focus on the order just seen (after the
  // heading's own focus, which the child's effect gives first).
  useLayoutEffect(() => {
    const r = rolagem.get(caminho);
    if (r !== undefined) window.scrollTo(0, r.y);
  }, [caminho]);
  useEffect(() => {
    const pedido = rolagem.get(caminho)?.pedido;
    if (pedido !== undefined && pedido !== null)
      document.getElementById(`pedido-${pedido}`)?.focus({ preventScroll: true });
  }, [caminho]);
  const abrir = useCallback(
    (id: string) => {
      rolagem.set(caminho, { y: window.scrollY, pedido: id, limite: limiteAtual.current });
      navegar(`${caminho}/pedido/${id}`);
    },
    [caminho],
  );

  const lido = useCallback(
    (texto: string) => {
      const achado = pedidoDoQr(texto, dados.pedidos);
      setLendo(false);
      if (achado === null) {
        setAvisoQr('Este QR não é de um pedido deste ponto neste ciclo.');
        campo.current?.focus();
      } else {
        setAvisoQr(null);
        abrir(achado.id);
      }
    },
    [dados.pedidos, abrir],
  );

  const teclas = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter opens the order when the search leaves only one.
    const unico = visiveis.length === 1 ? visiveis[0] : undefined;
    if (e.key === 'Enter' && unico !== undefined) {
      e.preventDefault();
      abrir(unico.id);
    }
  };

  const quando = quandoRetirar(dados);
  return (
    <>
      <Titulo texto={dados.pontoNome}>{dados.pontoNome}</Titulo>
      <p className="suave subtitulo">
        {dados.cicloNome}
        {quando === null ? '' : ` · ${quando}`}
        {dados.endereco === null ? '' : ` · ${dados.endereco}`}
      </p>
      {faixas}
      <p className="contagem">
        <strong>
          {retirados} de {dados.pedidos.length}
        </strong>{' '}
        {dados.pedidos.length === 1 ? 'retirado' : 'retirados'}
      </p>
      <BarraDaFila ponto={ponto} online={online} />
      <NaoAceitas ponto={ponto} dados={dados} />

      <div className="busca" role="search">
        <label htmlFor="busca">Buscar pelo nome</label>
        <div className="linha-busca">
          <input
            id="busca"
            ref={campo}
            type="search"
            value={busca}
            autoComplete="off"
            enterKeyHint="go"
            onChange={(e) => filtrar({ busca: e.target.value, soFaltam })}
            onKeyDown={teclas}
            aria-describedby="resultado-busca"
          />
          <button
            type="button"
            className="botao"
            onClick={() => {
              setAvisoQr(null);
              setLendo(true);
            }}
            aria-expanded={lendo}
          >
            Ler QR
          </button>
        </div>
        <div className="campo caixa">
          <input
            id="so-faltam"
            type="checkbox"
            checked={soFaltam}
            onChange={(e) => filtrar({ busca, soFaltam: e.target.checked })}
          />
          <label htmlFor="so-faltam">Só quem ainda não retirou</label>
        </div>
      </div>
      {lendo ? (
        <Suspense
          fallback={
            <p className="carregando" role="status">
              <span className="girando" aria-hidden="true" /> Abrindo o leitor…
            </p>
          }
        >
          <LeitorDeQr aoLer={lido} aoFechar={() => setLendo(false)} />
        </Suspense>
      ) : null}
      {avisoQr === null ? null : (
        <p className="alerta" role="alert">
          {avisoQr}
        </p>
      )}
      <p id="resultado-busca" className="suave pequeno" aria-live="polite">
        {busca.trim() === '' && !soFaltam
          ? `${dados.pedidos.length} ${dados.pedidos.length === 1 ? 'pedido' : 'pedidos'}`
          : `${visiveis.length} de ${dados.pedidos.length} ${dados.pedidos.length === 1 ? 'pedido' : 'pedidos'}`}
      </p>
      {visiveis.length === 0 ? (
        <p className="aviso">
          {busca.trim() === ''
            ? 'Todos os pedidos deste ponto já foram retirados.'
            : `Nenhum pedido com “${busca.trim()}” no nome.`}
        </p>
      ) : (
        <ul className="lista-pedidos">
          {visiveis.slice(0, limite).map((x) => (
            <CartaoDoPedido
              key={x.id}
              pedido={x}
              situacao={situacoes.get(x.id) ?? situacaoDoPedido(x)}
              caminho={caminho}
              busca={busca}
              abrir={abrir}
            />
          ))}
          {restantes > 0 ? (
            <li ref={fim} className="mais">
              <button type="button" className="botao secundario" onClick={mostrarMais}>
                Mostrar mais {Math.min(POR_VEZ, restantes)} de {restantes}
              </button>
            </li>
          ) : null}
        </ul>
      )}
    </>
  );
}

/** One order in the list: the whole card is the link. Drawn again only when what it shows changes. */
const CartaoDoPedido = memo(function CartaoDoPedido({
  pedido: x,
  situacao: s,
  caminho,
  busca,
  abrir,
}: {
  readonly pedido: PedidoNaRetirada;
  readonly situacao: Situacao;
  readonly caminho: string;
  readonly busca: string;
  readonly abrir: (id: string) => void;
}) {
  return (
    <li className={s.retirada === null ? undefined : 'retirado'}>
      <a
        id={`pedido-${x.id}`}
        href={`${caminho}/pedido/${x.id}`}
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          abrir(x.id);
        }}
      >
        <span className="nome">
          <Realce texto={x.pessoa} busca={busca} />
        </span>
        <span className="resumo">{resumoDoPedido(x)}</span>
        <span className="valores">
          {s.devidoCentavos > 0 ? (
            <span className="valor-a-pagar">A pagar {reaisDeCentavos(s.devidoCentavos)}</span>
          ) : (
            <span className="pago">Nada a pagar</span>
          )}
          {s.retirada === null ? null : (
            <span className="etiqueta ok">
              <span aria-hidden="true">✓ </span>Retirado
              {s.retirada.origem === 'fila' ? ' (esperando envio)' : ''}
            </span>
          )}
          {s.faltas.length > 0 ? <span className="etiqueta falta">Falta registrada</span> : null}
        </span>
      </a>
    </li>
  );
});

/** The name with the part the search found in bold (accents aside). */
function Realce({ texto, busca }: { readonly texto: string; readonly busca: string }) {
  const termo = semAcentos(busca.trim().split(/\s+/)[0] ?? '');
  if (termo === '') return <>{texto}</>;
  // The position is found on the accent-free copy, which has the same length for precomposed (NFC) text.
  const base = semAcentos(texto);
  const i = base.indexOf(termo);
  if (i < 0 || base.length !== texto.length) return <>{texto}</>;
  return (
    <>
      {texto.slice(0, i)}
      <mark>{texto.slice(i, i + termo.length)}</mark>
      {texto.slice(i + termo.length)}
    </>
  );
}
