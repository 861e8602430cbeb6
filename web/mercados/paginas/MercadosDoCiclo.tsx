import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErroApi, mensagemDe } from '../api.ts';
import { ComCarga, Falha, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { nomeDoTipo, tipoDeMercado, type TipoMercado } from '../tipos-de-mercado.ts';
import { decimalLegivel, reais } from '../dinheiro.ts';
import { NOMES_FASES } from '../ciclo-comum.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import {
  definirMercadosDoCiclo,
  lerMercadosDoCiclo,
  type CicloParaMercados,
  type MercadoAtivo,
} from '../fluxo-mercado.ts';
import { Link } from '../navegacao.tsx';

/** One market of the list being edited; its place in the list is its order of service. */
interface Escolha {
  readonly mercadoId: string;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly taxaAdministrativa: string | null;
  readonly valorMaximoCesta: string | null;
  readonly pontos: ReadonlySet<string>;
  readonly cestas: ReadonlySet<string>;
}

const escolhasDo = (ciclo: CicloParaMercados): Escolha[] =>
  [...ciclo.mercados]
    .sort((a, b) => a.ordemAtendimento - b.ordemAtendimento)
    .map((m) => ({
      mercadoId: m.mercadoId,
      nome: m.nome,
      tipo: m.tipo,
      taxaAdministrativa: m.taxaAdministrativa,
      valorMaximoCesta: m.valorMaximoCesta,
      pontos: new Set(m.pontosEntrega.map((p) => p.id)),
      cestas: new Set(m.cicloCestaIds),
    }));

const taxa = (t: string | null): string => (t === null ? '—' : `${decimalLegivel(t)} %`);

/** The API names a refused field `input[1].ordemAtendimento`: the market at index 1, or the whole list. */
function errosPorMercado(
  campos: Readonly<Record<string, string>>,
  escolhas: readonly Escolha[],
): { porMercado: Map<string, string[]>; gerais: string[] } {
  const porMercado = new Map<string, string[]>();
  const gerais: string[] = [];
  for (const [caminho, mensagem] of Object.entries(campos)) {
    const m = /^input\[(\d+)\]/.exec(caminho);
    const alvo = m === null ? undefined : escolhas[Number(m[1])];
    if (alvo === undefined) gerais.push(mensagem);
    else porMercado.set(alvo.mercadoId, [...(porMercado.get(alvo.mercadoId) ?? []), mensagem]);
  }
  return { porMercado, gerais };
}

interface PropsCartao {
  readonly escolha: Escolha;
  readonly posicao: number;
  readonly total: number;
  readonly ciclo: CicloParaMercados;
  readonly erros: readonly string[];
  readonly mover: (delta: -1 | 1) => void;
  readonly remover: () => void;
  readonly mudar: (e: Escolha) => void;
  readonly botoes: (mercadoId: string, qual: 'subir' | 'descer') => (el: HTMLButtonElement | null) => void;
}

function CartaoMercado({ escolha, posicao, total, ciclo, erros, mover, remover, mudar, botoes }: PropsCartao) {
  const id = useId();
  const alternar = (chave: 'pontos' | 'cestas', valor: string, marcar: boolean) => {
    const novo = new Set(escolha[chave]);
    if (marcar) novo.add(valor);
    else novo.delete(valor);
    mudar({ ...escolha, [chave]: novo });
  };
  return (
    <li
      className={erros.length > 0 ? 'mercado-ciclo com-erro' : 'mercado-ciclo'}
      aria-labelledby={`${id}-nome`}
      aria-describedby={erros.length > 0 ? `${id}-erros` : undefined}
    >
      <div className="cabeca">
        <span className="ordem" aria-hidden="true">
          {posicao + 1}
        </span>
        <h3 id={`${id}-nome`}>
          {escolha.nome}
          <span className="visualmente-oculto">, {posicao + 1}º no atendimento</span>
        </h3>
      </div>
      <p className="suave">
        {nomeDoTipo(escolha.tipo)} · taxa {taxa(escolha.taxaAdministrativa)}
        {tipoDeMercado(escolha.tipo).exigeValorMaximoCesta ? (
          <>
            {' '}
            · cesta até <span className="valor">{reais(escolha.valorMaximoCesta)}</span>
          </>
        ) : null}
      </p>
      {erros.length === 0 ? null : (
        <div className="erro-campo" id={`${id}-erros`}>
          {erros.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      )}
      <div className="acoes">
        <button
          type="button"
          className="botao secundario"
          ref={botoes(escolha.mercadoId, 'subir')}
          onClick={() => mover(-1)}
          disabled={posicao === 0}
        >
          ↑ Subir<span className="visualmente-oculto"> {escolha.nome}</span>
        </button>
        <button
          type="button"
          className="botao secundario"
          ref={botoes(escolha.mercadoId, 'descer')}
          onClick={() => mover(1)}
          disabled={posicao === total - 1}
        >
          ↓ Descer<span className="visualmente-oculto"> {escolha.nome}</span>
        </button>
        <button type="button" className="botao secundario" onClick={remover}>
          Tirar do ciclo<span className="visualmente-oculto"> {escolha.nome}</span>
        </button>
      </div>
      <fieldset>
        <legend>Pontos de retirada</legend>
        <p className="ajuda">Nenhum marcado: os pontos do ciclo.</p>
        {ciclo.pontosEntrega.length === 0 ? <p className="suave">O ciclo não tem pontos de retirada.</p> : null}
        <ul className="opcoes-avisos">
          {ciclo.pontosEntrega.map((p) => (
            <li key={p.id} className="campo caixa">
              <input
                id={`${id}-p${p.id}`}
                type="checkbox"
                checked={escolha.pontos.has(p.id)}
                onChange={(e) => alternar('pontos', p.id, e.target.checked)}
              />
              <label htmlFor={`${id}-p${p.id}`}>
                {p.nome}
                {p.cidade === null ? null : <span className="suave"> · {p.cidade}</span>}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {tipoDeMercado(escolha.tipo).vende === 'cestas' ? (
        <fieldset>
          <legend>Cestas que vende</legend>
          {ciclo.cestas.length === 0 ? <p className="suave">O ciclo ainda não tem cestas.</p> : null}
          <ul className="opcoes-avisos">
            {ciclo.cestas.map((c) => (
              <li key={c.cicloCestaId} className="campo caixa">
                <input
                  id={`${id}-c${c.cicloCestaId}`}
                  type="checkbox"
                  checked={escolha.cestas.has(c.cicloCestaId)}
                  onChange={(e) => alternar('cestas', c.cicloCestaId, e.target.checked)}
                />
                <label htmlFor={`${id}-c${c.cicloCestaId}`}>
                  {c.nome} <span className="suave">· {reais(c.valor)}</span>
                  {c.emComposicao ? <span className="suave"> · em composição</span> : null}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ) : null}
    </li>
  );
}

function Adicionar({
  disponiveis,
  adicionar,
}: {
  readonly disponiveis: readonly MercadoAtivo[];
  readonly adicionar: (m: MercadoAtivo) => void;
}) {
  const [escolhido, setEscolhido] = useState('');
  const id = useId();
  if (disponiveis.length === 0) return <p className="suave">Todos os mercados ativos já estão no ciclo.</p>;
  // Not a form of its own: it sits inside the list's form, and only "Salvar" sends.
  const enviar = () => {
    const m = disponiveis.find((x) => x.id === escolhido) ?? disponiveis[0];
    if (m === undefined) return;
    adicionar(m);
    setEscolhido('');
  };
  return (
    <div className="linha-campos adicionar">
      <div className="campo">
        <label htmlFor={id}>Mercado ativo</label>
        <select
          id={id}
          value={escolhido === '' ? (disponiveis[0]?.id ?? '') : escolhido}
          onChange={(e) => setEscolhido(e.target.value)}
        >
          {disponiveis.map((m) => (
            <option key={m.id} value={m.id}>
              {m.nome} ({nomeDoTipo(m.tipo)})
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="botao secundario" onClick={enviar}>
        Adicionar ao ciclo
      </button>
    </div>
  );
}

function Editor({
  inicial,
  ativosIniciais,
}: {
  readonly inicial: CicloParaMercados;
  readonly ativosIniciais: readonly MercadoAtivo[];
}) {
  const [ciclo, setCiclo] = useState(inicial);
  const [ativos, setAtivos] = useState(ativosIniciais);
  const [escolhas, setEscolhas] = useState<Escolha[]>(() => escolhasDo(inicial));
  const [salvando, setSalvando] = useState(false);
  const [erro, setErro] = useState<{ mensagem: string; porMercado: Map<string, string[]>; gerais: string[] } | null>(
    null,
  );
  const [salvo, setSalvo] = useState(false);
  const [anuncio, setAnuncio] = useState('');
  const foco = useRef<{ mercadoId: string; qual: 'subir' | 'descer' } | null>(null);
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const botoes = (mercadoId: string, qual: 'subir' | 'descer') => (el: HTMLButtonElement | null) => {
    if (el === null) refs.current.delete(`${mercadoId}:${qual}`);
    else refs.current.set(`${mercadoId}:${qual}`, el);
  };
  // After a move the focus stays with the moved market's button, or its other one when this one is now disabled.
  useEffect(() => {
    const f = foco.current;
    if (f === null) return;
    foco.current = null;
    const outro = f.qual === 'subir' ? 'descer' : 'subir';
    const alvo = [refs.current.get(`${f.mercadoId}:${f.qual}`), refs.current.get(`${f.mercadoId}:${outro}`)].find(
      (b) => b !== undefined && !b.disabled,
    );
    alvo?.focus();
  }, [escolhas]);

  const mudou = () => {
    setSalvo(false);
  };
  const mover = (i: number, delta: -1 | 1) => {
    const j = i + delta;
    const a = escolhas[i];
    const b = escolhas[j];
    if (a === undefined || b === undefined) return;
    const nova = [...escolhas];
    nova[i] = b;
    nova[j] = a;
    foco.current = { mercadoId: a.mercadoId, qual: delta === -1 ? 'subir' : 'descer' };
    setEscolhas(nova);
    setAnuncio(`${a.nome} agora é o ${j + 1}º no atendimento.`);
    mudou();
  };
  const remover = (i: number) => {
    const m = escolhas[i];
    setEscolhas(escolhas.filter((_, k) => k !== i));
    if (m !== undefined) setAnuncio(`${m.nome} saiu do ciclo (salve para gravar).`);
    mudou();
  };
  const adicionar = (m: MercadoAtivo) => {
    setEscolhas([
      ...escolhas,
      {
        mercadoId: m.id,
        nome: m.nome,
        tipo: m.tipo,
        taxaAdministrativa: m.taxaAdministrativa,
        valorMaximoCesta: m.valorMaximoCesta,
        pontos: new Set(),
        cestas: new Set(),
      },
    ]);
    setAnuncio(`${m.nome} entrou no ciclo como ${escolhas.length + 1}º (salve para gravar).`);
    mudou();
  };
  const salvar = async (e: FormEvent) => {
    e.preventDefault();
    setSalvando(true);
    setErro(null);
    setSalvo(false);
    try {
      const input = escolhas.map((m, i) => ({
        mercadoId: m.mercadoId,
        ordemAtendimento: i + 1,
        pontoEntregaIds: [...m.pontos],
        cicloCestaIds: tipoDeMercado(m.tipo).vende === 'cestas' ? [...m.cestas] : [],
      }));
      const novo = await definirMercadosDoCiclo(ciclo.id, input);
      setCiclo(novo);
      setEscolhas(escolhasDo(novo));
      setSalvo(true);
      // Markets may have been deactivated meanwhile: the list to add from is read again.
      const depois = await lerMercadosDoCiclo(novo.id).catch(() => null);
      if (depois !== null) setAtivos(depois.ativos);
    } catch (x) {
      const campos = x instanceof ErroApi ? x.campos : {};
      setErro({ mensagem: mensagemDe(x), ...errosPorMercado(campos, escolhas) });
    } finally {
      setSalvando(false);
    }
  };
  const noCiclo = new Set(escolhas.map((m) => m.mercadoId));
  return (
    <form onSubmit={(e) => void salvar(e)} noValidate>
      <p className="visualmente-oculto" aria-live="polite">
        {anuncio}
      </p>
      <section aria-labelledby="titulo-lista">
        <h2 id="titulo-lista">Mercados, na ordem de atendimento</h2>
        {escolhas.length === 0 ? <p className="aviso">Nenhum mercado: o ciclo funciona sem mercados.</p> : null}
        <ol className="mercados-ciclo">
          {escolhas.map((m, i) => (
            <CartaoMercado
              key={m.mercadoId}
              escolha={m}
              posicao={i}
              total={escolhas.length}
              ciclo={ciclo}
              erros={erro?.porMercado.get(m.mercadoId) ?? []}
              mover={(d) => mover(i, d)}
              remover={() => remover(i)}
              mudar={(novo) => {
                setEscolhas(escolhas.map((x, k) => (k === i ? novo : x)));
                mudou();
              }}
              botoes={botoes}
            />
          ))}
        </ol>
      </section>
      <section aria-labelledby="titulo-adicionar" className="lote">
        <h2 id="titulo-adicionar">Adicionar mercado</h2>
        <Adicionar disponiveis={ativos.filter((m) => !noCiclo.has(m.id))} adicionar={adicionar} />
      </section>
      <div className="barra-salvar">
        {erro === null ? null : (
          <Falha
            mensagem={
              erro.gerais.length > 0
                ? `Nada foi gravado. ${erro.gerais.join(' ')}`
                : erro.porMercado.size > 0
                  ? 'Nada foi gravado: corrija o que está indicado no mercado marcado acima.'
                  : erro.mensagem
            }
          />
        )}
        {salvo ? <Sucesso>Mercados do ciclo salvos.</Sucesso> : null}
        <button type="submit" className="botao" disabled={salvando}>
          {salvando ? 'Salvando…' : 'Salvar mercados do ciclo'}
        </button>
      </div>
    </form>
  );
}

/** /ciclos/:id/mercados: which markets the cycle serves, in order, with their points and baskets (definirMercadosDoCiclo). */
export function MercadosDoCiclo({ id }: { readonly id: string }) {
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.mercadosDoCiclo.ler(id), [id]);
  const titulo =
    estado.fase === 'pronto' && estado.dados !== null
      ? `Mercados do ciclo · ${estado.dados.ciclo.nome}`
      : 'Mercados do ciclo';
  return (
    <Pagina titulo={titulo}>
      <p>
        <Link para="/ciclos">← Ciclos</Link>
      </p>
      <ComCarga estado={estado} recarregar={recarregar}>
        {(dados) =>
          dados === null ? (
            <div className="alerta" role="alert">
              <p>Ciclo não encontrado.</p>
            </div>
          ) : !dados.ciclo.acoes.definirMercados ? (
            <div className="alerta" role="alert">
              <p>Só a coordenação define os mercados de um ciclo.</p>
            </div>
          ) : (
            <>
              <p className="suave">
                {NOMES_FASES[dados.ciclo.fase]}. A ordem da lista é a ordem de atendimento; salvar grava a lista
                inteira.
              </p>
              <Editor inicial={dados.ciclo} ativosIniciais={dados.ativos} />
            </>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
