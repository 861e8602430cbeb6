import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ErroApi, mensagemDe } from '../api.ts';
import { Baixar, ComCarga, Falha, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { lerMercado, listarProdutos, salvarPrecos, type Mercado, type Preco, type Produto } from '../consultas.ts';
import {
  ajustarPercentual,
  deCentavos,
  decimalLegivel,
  erroDoValor,
  paraCentavos,
  paraPercentual,
  reais,
} from '../dinheiro.ts';
import { Link, navegar } from '../navegacao.tsx';

/** One catalogue product in the editor: what the market has now and what is being typed. */
interface Linha {
  readonly produto: Produto;
  readonly atual: Preco | null;
  readonly novo: string;
  readonly ativo: boolean;
  readonly selecionada: boolean;
}

const OPERACOES = {
  definir: 'Definir o preço',
  percentual: 'Ajustar em %',
  referencia: 'Usar o valor de referência',
  vender: 'Pôr à venda',
  retirar: 'Tirar de venda',
} as const;
type Operacao = keyof typeof OPERACOES;

function linhasIniciais(mercado: Mercado, produtos: readonly Produto[]): Linha[] {
  const precos = new Map(mercado.precos.map((p) => [p.produtoId, p]));
  return produtos.map((produto) => {
    const atual = precos.get(produto.id) ?? null;
    return {
      produto,
      atual,
      novo: atual === null ? '' : decimalLegivel(atual.preco),
      ativo: atual?.ativo ?? true,
      selecionada: false,
    };
  });
}

/** A line changed when its price or its "à venda" differs from what is saved; a blank new line is left out. */
function mudou(l: Linha): boolean {
  if (l.atual === null) return l.novo.trim() !== '';
  return paraCentavos(l.novo) !== paraCentavos(l.atual.preco) || l.ativo !== l.atual.ativo;
}

function erroDaLinha(l: Linha): string | undefined {
  if (!mudou(l) && l.atual !== null) return undefined;
  if (l.atual === null && l.novo.trim() === '') return undefined;
  if (l.novo.trim() === '') return 'Informe o preço';
  return erroDoValor(l.novo) ?? undefined;
}

/** The base an adjustment starts from: what is typed, else the saved price, else the reference. */
function base(l: Linha): number | null {
  return (
    paraCentavos(l.novo) ??
    (l.atual === null ? null : paraCentavos(l.atual.preco)) ??
    (l.produto.valorReferencia === null ? null : paraCentavos(l.produto.valorReferencia))
  );
}

function aplicar(l: Linha, op: Operacao, valor: string): Linha {
  switch (op) {
    case 'definir':
      return { ...l, novo: valor.trim() };
    case 'percentual': {
      const b = base(l);
      const p = paraPercentual(valor);
      return b === null || p === null ? l : { ...l, novo: decimalLegivel(deCentavos(ajustarPercentual(b, p))) };
    }
    case 'referencia':
      return l.produto.valorReferencia === null ? l : { ...l, novo: decimalLegivel(l.produto.valorReferencia) };
    case 'vender':
      return { ...l, ativo: true };
    case 'retirar':
      return { ...l, ativo: false };
  }
}

function EdicaoEmLote({
  selecionadas,
  aplicarEmLote,
}: {
  readonly selecionadas: number;
  readonly aplicarEmLote: (op: Operacao, valor: string) => string | null;
}) {
  const [op, setOp] = useState<Operacao>('definir');
  const [valor, setValor] = useState('');
  const [erro, setErro] = useState<string | null>(null);
  const id = useId();
  const precisaValor = op === 'definir' || op === 'percentual';
  const enviar = (e: FormEvent) => {
    e.preventDefault();
    setErro(aplicarEmLote(op, valor));
  };
  return (
    <form className="lote" onSubmit={enviar} aria-labelledby={`${id}-titulo`} noValidate>
      <h2 id={`${id}-titulo`}>Edição em lote</h2>
      <p className="suave">
        Escolha as linhas na tabela e aplique a mudança a todas de uma vez. Nada é gravado até você salvar.
      </p>
      <div className="linha-campos">
        <div className="campo">
          <label htmlFor={`${id}-op`}>O que fazer</label>
          <select id={`${id}-op`} value={op} onChange={(e) => setOp(e.target.value as Operacao)}>
            {Object.entries(OPERACOES).map(([k, nome]) => (
              <option key={k} value={k}>
                {nome}
              </option>
            ))}
          </select>
        </div>
        {precisaValor ? (
          <div className={erro === null ? 'campo' : 'campo com-erro'}>
            <label htmlFor={`${id}-valor`}>
              {op === 'definir' ? 'Novo preço (R$)' : 'Ajuste (%, negativo para baixar)'}
            </label>
            <input
              id={`${id}-valor`}
              type="text"
              inputMode="decimal"
              value={valor}
              onChange={(e) => setValor(e.target.value)}
              aria-invalid={erro !== null}
              aria-describedby={erro === null ? undefined : `${id}-erro`}
            />
          </div>
        ) : null}
        <button type="submit" className="botao secundario" disabled={selecionadas === 0}>
          Aplicar a {selecionadas} {selecionadas === 1 ? 'produto' : 'produtos'}
        </button>
      </div>
      {erro === null ? null : (
        <p className="erro-campo" id={`${id}-erro`} role="alert">
          {erro}
        </p>
      )}
    </form>
  );
}

function Editor({
  mercado,
  produtos,
  aoSalvar,
}: {
  readonly mercado: Mercado;
  readonly produtos: readonly Produto[];
  readonly aoSalvar: (n: number) => void;
}) {
  const [linhas, setLinhas] = useState<Linha[]>(() => linhasIniciais(mercado, produtos));
  const [busca, setBusca] = useState('');
  const [errosServidor, setErrosServidor] = useState<ReadonlyMap<string, string>>(new Map());
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const erroRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (erroGeral !== null) erroRef.current?.focus();
  }, [erroGeral]);
  const [mostrarErros, setMostrarErros] = useState(false);
  const [salvando, setSalvando] = useState(false);
  const id = useId();

  const termo = busca.trim().toLocaleLowerCase('pt-BR');
  const visiveis = useMemo(
    () => linhas.filter((l) => termo === '' || l.produto.nome.toLocaleLowerCase('pt-BR').includes(termo)),
    [linhas, termo],
  );
  const alteradas = linhas.filter(mudou);
  const selecionadas = linhas.filter((l) => l.selecionada).length;
  const todasVisiveisSelecionadas = visiveis.length > 0 && visiveis.every((l) => l.selecionada);

  const mudarLinha = (produtoId: string, mudanca: Partial<Linha>) =>
    setLinhas((ls) => ls.map((l) => (l.produto.id === produtoId ? { ...l, ...mudanca } : l)));
  const selecionarVisiveis = (marcar: boolean) => {
    const ids = new Set(visiveis.map((l) => l.produto.id));
    setLinhas((ls) => ls.map((l) => (ids.has(l.produto.id) ? { ...l, selecionada: marcar } : l)));
  };
  const aplicarEmLote = (op: Operacao, valor: string): string | null => {
    if (op === 'definir' && paraCentavos(valor) === null) return erroDoValor(valor);
    if (op === 'percentual' && paraPercentual(valor) === null) return 'Informe um percentual, como 10 ou -5,5';
    setLinhas((ls) => ls.map((l) => (l.selecionada ? aplicar(l, op, valor) : l)));
    return null;
  };

  const salvar = async () => {
    setErroGeral(null);
    setErrosServidor(new Map());
    setMostrarErros(true);
    if (alteradas.some((l) => erroDaLinha(l) !== undefined)) {
      setErroGeral('Há preços a corrigir nas linhas marcadas. Nada foi gravado.');
      return;
    }
    const lote: Preco[] = alteradas.map((l) => ({
      produtoId: l.produto.id,
      preco: deCentavos(paraCentavos(l.novo) ?? 0),
      ativo: l.ativo,
    }));
    setSalvando(true);
    try {
      await salvarPrecos(mercado.id, lote);
      aoSalvar(lote.length);
    } catch (e) {
      // The server names bad lines by position in the batch: input.precos[2].preco.
      const porProduto = new Map<string, string>();
      if (e instanceof ErroApi) {
        for (const [caminho, mensagem] of Object.entries(e.campos)) {
          const i = /^input\.precos\[(\d+)\]/.exec(caminho)?.[1];
          const linha = i === undefined ? undefined : lote[Number(i)];
          if (linha !== undefined) porProduto.set(linha.produtoId, mensagem);
        }
      }
      setErrosServidor(porProduto);
      setErroGeral(
        porProduto.size > 0
          ? 'O servidor recusou o lote por causa das linhas marcadas. Nada foi gravado.'
          : mensagemDe(e),
      );
    } finally {
      setSalvando(false);
    }
  };

  return (
    <>
      <EdicaoEmLote selecionadas={selecionadas} aplicarEmLote={aplicarEmLote} />
      <div className="barra">
        <div className="campo">
          <label htmlFor={`${id}-busca`}>Buscar produto</label>
          <input id={`${id}-busca`} type="search" value={busca} onChange={(e) => setBusca(e.target.value)} />
        </div>
        <div className="campo caixa">
          <input
            id={`${id}-todas`}
            type="checkbox"
            checked={todasVisiveisSelecionadas}
            onChange={(e) => selecionarVisiveis(e.target.checked)}
            disabled={visiveis.length === 0}
          />
          <label htmlFor={`${id}-todas`}>Selecionar os {visiveis.length} produtos listados</label>
        </div>
      </div>
      {visiveis.length === 0 ? (
        <p className="aviso" role="status">
          Nenhum produto encontrado.
        </p>
      ) : (
        <table className="tabela precos">
          <caption className="visualmente-oculto">Preços de {mercado.nome} sobre o catálogo</caption>
          <thead>
            <tr>
              <th scope="col">Selecionar</th>
              <th scope="col">Produto</th>
              <th scope="col" className="numero">
                Preço atual
              </th>
              <th scope="col">Novo preço (R$)</th>
              <th scope="col">À venda</th>
            </tr>
          </thead>
          <tbody>
            {visiveis.map((l) => {
              const pid = `${id}-p${l.produto.id}`;
              const erro = errosServidor.get(l.produto.id) ?? (mostrarErros ? erroDaLinha(l) : undefined);
              return (
                <tr
                  key={l.produto.id}
                  className={
                    [mudou(l) ? 'alterada' : '', erro === undefined ? '' : 'com-erro'].join(' ').trim() || undefined
                  }
                >
                  <td data-rotulo="Selecionar">
                    <input
                      id={`${pid}-sel`}
                      type="checkbox"
                      checked={l.selecionada}
                      onChange={(e) => mudarLinha(l.produto.id, { selecionada: e.target.checked })}
                    />
                    <label htmlFor={`${pid}-sel`} className="visualmente-oculto">
                      Selecionar {l.produto.nome}
                    </label>
                  </td>
                  <th scope="row" data-rotulo="Produto">
                    {l.produto.nome} <span className="suave">({l.produto.unidade})</span>
                    {l.produto.ativo ? null : <span className="etiqueta inativo">Fora do catálogo</span>}
                    <br />
                    <span className="suave pequeno">Referência: {reais(l.produto.valorReferencia)}</span>
                  </th>
                  <td data-rotulo="Preço atual" className="numero">
                    {l.atual === null ? 'sem preço' : reais(l.atual.preco)}
                  </td>
                  <td data-rotulo="Novo preço (R$)">
                    <label htmlFor={`${pid}-preco`} className="visualmente-oculto">
                      Novo preço de {l.produto.nome}
                    </label>
                    <input
                      id={`${pid}-preco`}
                      className="preco"
                      type="text"
                      inputMode="decimal"
                      value={l.novo}
                      onChange={(e) => mudarLinha(l.produto.id, { novo: e.target.value })}
                      aria-invalid={erro !== undefined}
                      aria-describedby={erro === undefined ? undefined : `${pid}-erro`}
                    />
                    {erro === undefined ? null : (
                      <p className="erro-campo" id={`${pid}-erro`}>
                        {erro}
                      </p>
                    )}
                  </td>
                  <td data-rotulo="À venda">
                    <input
                      id={`${pid}-ativo`}
                      type="checkbox"
                      checked={l.ativo}
                      onChange={(e) => mudarLinha(l.produto.id, { ativo: e.target.checked })}
                    />
                    <label htmlFor={`${pid}-ativo`} className="visualmente-oculto">
                      {l.produto.nome} à venda
                    </label>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="barra-salvar">
        {/* The save's refusal sits beside its button and takes the focus: on a phone the person is here. */}
        {erroGeral === null ? null : (
          <div ref={erroRef} tabIndex={-1} className="erro-do-salvar">
            <Falha mensagem={erroGeral} />
          </div>
        )}
        <p aria-live="polite">
          {alteradas.length === 0
            ? 'Nenhuma alteração.'
            : `${alteradas.length} ${alteradas.length === 1 ? 'preço alterado' : 'preços alterados'}, ainda não gravados.`}
        </p>
        <button
          type="button"
          className="botao"
          onClick={() => void salvar()}
          disabled={salvando || alteradas.length === 0}
        >
          {salvando ? 'Salvando…' : 'Salvar preços'}
        </button>
        <Link para={`/mercados/${mercado.id}`} className="botao secundario">
          Voltar ao mercado
        </Link>
      </div>
    </>
  );
}

/** /mercados/:id/precos: the whole catalogue with the market's prices, edited in bulk, saved in one atomic batch. */
export function EditorPrecos({ id }: { readonly id: string }) {
  const { estado, recarregar } = useCarga(async () => {
    const [mercado, produtos] = await Promise.all([lerMercado(id), listarProdutos()]);
    return { mercado, produtos };
  }, [id]);
  const [salvos, setSalvos] = useState<number | null>(null);
  const semPermissao =
    estado.fase === 'pronto' && estado.dados.mercado !== null && !estado.dados.mercado.acoes.editarPrecos;
  useEffect(() => {
    if (semPermissao) navegar('/unauthorized', { substituir: true });
  }, [semPermissao]);
  const nome = estado.fase === 'pronto' ? estado.dados.mercado?.nome : undefined;
  return (
    <Pagina titulo={nome === undefined ? 'Preços do mercado' : `Preços de ${nome}`}>
      {salvos === null ? null : <Sucesso>{salvos === 1 ? '1 preço gravado.' : `${salvos} preços gravados.`}</Sucesso>}
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ mercado, produtos }) =>
          mercado === null ? (
            <div className="alerta" role="alert">
              <p>Mercado não encontrado.</p>
            </div>
          ) : semPermissao ? null : (
            <>
              {mercado.acoes.baixarPrecos && mercado.precos.length > 0 ? (
                <Baixar endereco={`/planilhas/mercados/${mercado.id}/precos`} rotulo="Baixar os preços gravados" />
              ) : null}
              <Editor
                mercado={mercado}
                produtos={produtos}
                aoSalvar={(n) => {
                  setSalvos(n);
                  recarregar();
                }}
              />
            </>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
