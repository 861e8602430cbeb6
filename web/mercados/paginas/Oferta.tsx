import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { ErroApi, mensagemDe } from '../api.ts';
import { Aviso, ComCarga, Falha, Pagina, Sucesso, useCarga } from '../componentes.tsx';
import { deCentavos, decimalLegivel, erroDoValor, paraCentavos, reais } from '../dinheiro.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import {
  gravarOferta,
  motivoSemOferta,
  type CicloResumo,
  type LinhaParaSalvar,
  type Oferta as OfertaGql,
  type ProdutoParaOfertar,
} from '../fluxo-fornecedor.ts';
import {
  dataBr,
  deMilesimos,
  instanteLegivel,
  paraMilesimos,
  quantidadeComUnidade,
  quantidadeLegivel,
  valorDaQuantidade,
} from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { useFuso } from '../sessao.tsx';

/** One product on the page: what is saved of it and what is being typed. */
interface Linha {
  readonly produtoid: string;
  readonly nome: string;
  readonly unidade: string;
  readonly categoria: string | null;
  /** The suggested price (the catalogue's reference), dot decimal; null for a line whose product left the list. */
  readonly sugestao: string | null;
  readonly ofertadoAntes: boolean;
  /** What baskets already use of the line, in thousandths: it cannot drop below this. */
  readonly alocadoMil: number;
  readonly quantidade: string;
  readonly valor: string;
  /** What is saved (the offer's line), as typed text, to tell changed lines. */
  readonly salvaQuantidade: string;
  readonly salvoValor: string;
}

interface ErrosDaLinha {
  readonly quantidade?: string;
  readonly valor?: string;
}

function linhasIniciais(oferta: OfertaGql | null, produtos: readonly ProdutoParaOfertar[]): Linha[] {
  const naOferta = new Map((oferta?.produtos ?? []).map((l) => [l.produtoid, l]));
  const linha = (p: {
    produtoid: string;
    nome: string;
    unidade: string;
    categoria: string | null;
    valorReferencia: string | null;
    ofertadoAntes: boolean;
  }): Linha => {
    const l = naOferta.get(p.produtoid);
    const quantidade = l === undefined ? '' : quantidadeLegivel(l.quantidade);
    const valor =
      l !== undefined ? decimalLegivel(l.valor) : p.valorReferencia === null ? '' : decimalLegivel(p.valorReferencia);
    return {
      produtoid: p.produtoid,
      nome: p.nome,
      unidade: p.unidade,
      categoria: p.categoria,
      sugestao: p.valorReferencia,
      ofertadoAntes: p.ofertadoAntes,
      alocadoMil: l === undefined ? 0 : (paraMilesimos(l.alocado) ?? 0),
      quantidade,
      valor,
      salvaQuantidade: quantidade,
      salvoValor: l === undefined ? '' : valor,
    };
  };
  const listados = new Set(produtos.map((p) => p.produtoid));
  // A line whose product is no longer offered (inactive) still shows, with the usual ones.
  const foraDaLista = (oferta?.produtos ?? [])
    .filter((l) => !listados.has(l.produtoid))
    .map((l) =>
      linha({
        produtoid: l.produtoid,
        nome: l.nome,
        unidade: l.unidade,
        categoria: null,
        valorReferencia: null,
        ofertadoAntes: true,
      }),
    );
  return [...foraDaLista, ...produtos.map(linha)];
}

const naOferta = (l: Linha): boolean => (paraMilesimos(l.quantidade) ?? 0) > 0;
const mudou = (l: Linha): boolean =>
  l.quantidade.trim() !== l.salvaQuantidade || (naOferta(l) && l.valor.trim() !== l.salvoValor);

function errosDaLinha(l: Linha): ErrosDaLinha {
  const q = l.quantidade.trim();
  const mil = paraMilesimos(q);
  if (q === '' || mil === 0) {
    return l.alocadoMil > 0
      ? {
          quantidade: `As cestas já usam ${quantidadeComUnidade(deMilesimos(l.alocadoMil), l.unidade)}: informe ao menos isso`,
        }
      : {};
  }
  const erros: { quantidade?: string; valor?: string } = {};
  if (mil === null) erros.quantidade = 'Use uma quantidade com até 3 casas, como 12,5';
  if (l.valor.trim() === '') erros.valor = 'Informe o preço por unidade';
  else {
    const erro = erroDoValor(l.valor);
    if (erro !== null) erros.valor = erro;
  }
  return erros;
}

const temErro = (e: ErrosDaLinha | undefined): boolean =>
  e !== undefined && (e.quantidade !== undefined || e.valor !== undefined);

function subtotal(l: Linha): number {
  const mil = paraMilesimos(l.quantidade);
  const c = paraCentavos(l.valor);
  return mil === null || c === null ? 0 : valorDaQuantidade(c, mil);
}

function CartaoDaLinha({
  l,
  erros,
  idBase,
  mudar,
}: {
  readonly l: Linha;
  readonly erros: ErrosDaLinha | undefined;
  readonly idBase: string;
  readonly mudar: (m: Partial<Linha>) => void;
}) {
  const idq = `${idBase}-q`;
  const idv = `${idBase}-v`;
  const descricaoValor = [
    l.sugestao === null ? undefined : `${idBase}-sug`,
    erros?.valor === undefined ? undefined : `${idv}-erro`,
  ]
    .filter((x) => x !== undefined)
    .join(' ');
  const descricaoQuantidade = [
    l.alocadoMil > 0 ? `${idBase}-aloc` : undefined,
    erros?.quantidade === undefined ? undefined : `${idq}-erro`,
  ]
    .filter((x) => x !== undefined)
    .join(' ');
  const classe = [
    'linha-oferta',
    naOferta(l) ? 'ofertada' : '',
    mudou(l) ? 'alterada' : '',
    temErro(erros) ? 'com-erro' : '',
  ]
    .filter((c) => c !== '')
    .join(' ');
  return (
    <li className={classe}>
      <h3 className="nome-produto">
        {l.nome} <span className="suave pequeno">({l.unidade})</span>
        {l.ofertadoAntes ? <span className="etiqueta usual">já ofertou</span> : null}
      </h3>
      {l.alocadoMil > 0 ? (
        <p className="alocado" id={`${idBase}-aloc`}>
          alocado: {quantidadeComUnidade(deMilesimos(l.alocadoMil), l.unidade)} em cestas
        </p>
      ) : null}
      <div className="campos-oferta">
        <div className={erros?.quantidade === undefined ? 'campo' : 'campo com-erro'}>
          <label htmlFor={idq}>
            Quantidade<span className="visualmente-oculto"> de {l.nome}</span> ({l.unidade})
          </label>
          <input
            id={idq}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={l.quantidade}
            onChange={(e) => mudar({ quantidade: e.target.value })}
            aria-invalid={erros?.quantidade !== undefined}
            aria-describedby={descricaoQuantidade === '' ? undefined : descricaoQuantidade}
          />
          {erros?.quantidade === undefined ? null : (
            <p className="erro-campo" id={`${idq}-erro`}>
              {erros.quantidade}
            </p>
          )}
        </div>
        <div className={erros?.valor === undefined ? 'campo' : 'campo com-erro'}>
          <label htmlFor={idv}>
            Preço<span className="visualmente-oculto"> de {l.nome}</span> por {l.unidade} (R$)
          </label>
          <input
            id={idv}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={l.valor}
            onChange={(e) => mudar({ valor: e.target.value })}
            aria-invalid={erros?.valor !== undefined}
            aria-describedby={descricaoValor === '' ? undefined : descricaoValor}
          />
          {l.sugestao === null ? null : (
            <p className="ajuda" id={`${idBase}-sug`}>
              sugestão: {reais(l.sugestao)}
            </p>
          )}
          {erros?.valor === undefined ? null : (
            <p className="erro-campo" id={`${idv}-erro`}>
              {erros.valor}
            </p>
          )}
        </div>
      </div>
      {naOferta(l) && subtotal(l) > 0 ? (
        <p className="subtotal-linha">Subtotal: {reais(deCentavos(subtotal(l)))}</p>
      ) : null}
    </li>
  );
}

function Grupo({
  titulo,
  linhas,
  erros,
  idBase,
  mudar,
}: {
  readonly titulo: string;
  readonly linhas: readonly Linha[];
  readonly erros: ReadonlyMap<string, ErrosDaLinha>;
  readonly idBase: string;
  readonly mudar: (produtoid: string, m: Partial<Linha>) => void;
}) {
  if (linhas.length === 0) return null;
  return (
    <section aria-labelledby={`${idBase}-titulo`}>
      <h2 id={`${idBase}-titulo`}>
        {titulo} <span className="suave pequeno">({linhas.length})</span>
      </h2>
      <ul className="linhas-oferta">
        {linhas.map((l) => (
          <CartaoDaLinha
            key={l.produtoid}
            l={l}
            erros={erros.get(l.produtoid)}
            idBase={`${idBase}-p${l.produtoid}`}
            mudar={(m) => mudar(l.produtoid, m)}
          />
        ))}
      </ul>
    </section>
  );
}

function Situacao({ ciclo, oferta }: { readonly ciclo: CicloResumo; readonly oferta: OfertaGql | null }) {
  const fuso = useFuso();
  return (
    <p className="situacao-oferta">
      <span>Ofertas até {dataBr(ciclo.dataOfertaFim)}</span>
      {' · '}
      {oferta === null ? (
        <span className="etiqueta">sem oferta ainda</span>
      ) : oferta.finalizada ? (
        <span className="etiqueta ativo">
          finalizada{oferta.finalizadaEm === null ? '' : ` em ${instanteLegivel(oferta.finalizadaEm, fuso)}`}
        </span>
      ) : (
        <span className="etiqueta inativo">rascunho</span>
      )}
    </p>
  );
}

function Editor({
  ciclo,
  ofertaInicial,
  produtos,
}: {
  readonly ciclo: CicloResumo;
  readonly ofertaInicial: OfertaGql | null;
  readonly produtos: readonly ProdutoParaOfertar[];
}) {
  const [oferta, setOferta] = useState<OfertaGql | null>(ofertaInicial);
  const [linhas, setLinhas] = useState<Linha[]>(() => linhasIniciais(ofertaInicial, produtos));
  const [busca, setBusca] = useState('');
  const [soDaOferta, setSoDaOferta] = useState(false);
  const [mostrarErros, setMostrarErros] = useState(false);
  const [errosServidor, setErrosServidor] = useState<ReadonlyMap<string, ErrosDaLinha>>(new Map());
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [salvo, setSalvo] = useState<string | null>(null);
  const [salvando, setSalvando] = useState<'rascunho' | 'final' | null>(null);
  const [focar, setFocar] = useState<string | null>(null);
  const id = useId();

  const erros = useMemo(() => {
    const m = new Map<string, ErrosDaLinha>();
    for (const l of linhas) {
      const local = mostrarErros ? errosDaLinha(l) : {};
      const doServidor = errosServidor.get(l.produtoid) ?? {};
      const juntos = { ...local, ...doServidor };
      if (temErro(juntos)) m.set(l.produtoid, juntos);
    }
    return m;
  }, [linhas, mostrarErros, errosServidor]);

  useEffect(() => {
    if (focar === null) return;
    document.getElementById(focar)?.focus();
    setFocar(null);
  }, [focar]);

  const termo = busca.trim().toLocaleLowerCase('pt-BR');
  const visivel = (l: Linha) =>
    erros.has(l.produtoid) ||
    ((termo === '' ||
      l.nome.toLocaleLowerCase('pt-BR').includes(termo) ||
      (l.categoria ?? '').toLocaleLowerCase('pt-BR').includes(termo)) &&
      (!soDaOferta || naOferta(l)));
  const visiveis = linhas.filter(visivel);
  const usuais = visiveis.filter((l) => l.ofertadoAntes);
  const outros = visiveis.filter((l) => !l.ofertadoAntes);
  const ofertadas = linhas.filter(naOferta);
  const total = ofertadas.reduce((s, l) => s + subtotal(l), 0);
  const alteradas = linhas.filter(mudou).length;

  const mudar = (produtoid: string, m: Partial<Linha>) => {
    setLinhas((ls) => ls.map((l) => (l.produtoid === produtoid ? { ...l, ...m } : l)));
    setSalvo(null);
    if (errosServidor.has(produtoid)) setErrosServidor((atual) => new Map([...atual].filter(([k]) => k !== produtoid)));
  };

  const salvar = async (finalizar: boolean) => {
    setErroGeral(null);
    setSalvo(null);
    setErrosServidor(new Map());
    setMostrarErros(true);
    const comErro = linhas.filter((l) => temErro(errosDaLinha(l)));
    if (comErro.length > 0) {
      setErroGeral(
        comErro.length === 1
          ? 'Há 1 produto a corrigir. Nada foi gravado.'
          : `Há ${comErro.length} produtos a corrigir. Nada foi gravado.`,
      );
      const primeiro = comErro[0];
      if (primeiro !== undefined)
        setFocar(
          `${id}-${primeiro.ofertadoAntes ? 'u' : 'o'}-p${primeiro.produtoid}-${errosDaLinha(primeiro).quantidade === undefined ? 'v' : 'q'}`,
        );
      return;
    }
    const lote: LinhaParaSalvar[] = ofertadas.map((l) => ({
      produtoid: l.produtoid,
      quantidade: deMilesimos(paraMilesimos(l.quantidade) ?? 0),
      valor: deCentavos(paraCentavos(l.valor) ?? 0),
    }));
    setSalvando(finalizar ? 'final' : 'rascunho');
    try {
      const nova = await gravarOferta(ciclo.id, lote, finalizar);
      setOferta(nova);
      setLinhas(linhasIniciais(nova, produtos));
      setMostrarErros(false);
      setSalvo(
        finalizar ? 'Oferta finalizada.' : 'Rascunho salvo. A oferta só vale para as cestas depois de finalizada.',
      );
    } catch (e) {
      // The server names a refused line by its position in what was sent: input.produtos[2].quantidade.
      const porProduto = new Map<string, ErrosDaLinha>();
      let primeiro: string | null = null;
      if (e instanceof ErroApi) {
        for (const [caminho, mensagem] of Object.entries(e.campos)) {
          const m = /^input\.produtos\[(\d+)\]\.?(\w*)/.exec(caminho);
          const linha = m === null ? undefined : lote[Number(m[1])];
          if (m === null || linha === undefined) continue;
          const campo = m[2] === 'valor' ? 'valor' : 'quantidade';
          porProduto.set(linha.produtoid, { ...porProduto.get(linha.produtoid), [campo]: mensagem });
          if (primeiro === null) {
            const l = linhas.find((x) => x.produtoid === linha.produtoid);
            primeiro = `${id}-${l?.ofertadoAntes === true ? 'u' : 'o'}-p${linha.produtoid}-${campo === 'valor' ? 'v' : 'q'}`;
          }
        }
      }
      setErrosServidor(porProduto);
      setErroGeral(
        porProduto.size > 0
          ? 'O servidor recusou a oferta por causa dos produtos marcados. Nada foi gravado.'
          : mensagemDe(e),
      );
      if (primeiro !== null) setFocar(primeiro);
    } finally {
      setSalvando(null);
    }
  };

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    void salvar(false);
  };

  return (
    <>
      <Situacao ciclo={ciclo} oferta={oferta} />
      <p className="suave">
        Informe a quantidade e o preço por unidade de cada produto que vai ofertar; deixe a quantidade em branco nos
        demais. O preço já vem com a sugestão do catálogo.
      </p>
      {salvo === null ? null : <Sucesso>{salvo}</Sucesso>}
      {erroGeral === null ? null : <Falha mensagem={erroGeral} />}
      <div className="barra" role="search">
        <div className="campo">
          <label htmlFor={`${id}-busca`}>Buscar produto</label>
          <input id={`${id}-busca`} type="search" value={busca} onChange={(e) => setBusca(e.target.value)} />
        </div>
        <div className="campo caixa">
          <input
            id={`${id}-so`}
            type="checkbox"
            checked={soDaOferta}
            onChange={(e) => setSoDaOferta(e.target.checked)}
          />
          <label htmlFor={`${id}-so`}>Só os produtos da oferta</label>
        </div>
      </div>
      <form onSubmit={enviar} noValidate aria-label={`Oferta em ${ciclo.nome}`}>
        {visiveis.length === 0 ? <Aviso>Nenhum produto encontrado.</Aviso> : null}
        <Grupo titulo="Produtos que você já ofertou" linhas={usuais} erros={erros} idBase={`${id}-u`} mudar={mudar} />
        <Grupo
          titulo={usuais.length === 0 ? 'Produtos' : 'Outros produtos'}
          linhas={outros}
          erros={erros}
          idBase={`${id}-o`}
          mudar={mudar}
        />
        <div className="barra-salvar fixa">
          <p aria-live="polite">
            <strong>Total: {reais(deCentavos(total))}</strong> ·{' '}
            {ofertadas.length === 1 ? '1 produto' : `${ofertadas.length} produtos`}
            {alteradas === 0 ? null : <span className="suave"> · alterações não gravadas</span>}
          </p>
          <button type="submit" className="botao secundario" disabled={salvando !== null}>
            {salvando === 'rascunho' ? 'Salvando…' : 'Salvar rascunho'}
          </button>
          <button
            type="button"
            className="botao"
            onClick={() => void salvar(true)}
            disabled={salvando !== null || ofertadas.length === 0}
          >
            {salvando === 'final' ? 'Finalizando…' : 'Finalizar oferta'}
          </button>
        </div>
      </form>
    </>
  );
}

/** The offer when it cannot be changed: what was offered, and why. */
function SoLeitura({
  ciclo,
  oferta,
  motivo,
}: {
  readonly ciclo: CicloResumo;
  readonly oferta: OfertaGql | null;
  readonly motivo: string;
}) {
  return (
    <>
      <Situacao ciclo={ciclo} oferta={oferta} />
      <Aviso>{motivo} A oferta não pode ser alterada.</Aviso>
      {oferta === null || oferta.produtos.length === 0 ? (
        <p>Você não fez oferta neste ciclo.</p>
      ) : (
        <table className="tabela oferta-lida">
          <caption className="visualmente-oculto">Sua oferta em {ciclo.nome}</caption>
          <thead>
            <tr>
              <th scope="col">Produto</th>
              <th scope="col" className="numero">
                Quantidade
              </th>
              <th scope="col" className="numero">
                Preço por unidade
              </th>
              <th scope="col" className="numero">
                Subtotal
              </th>
            </tr>
          </thead>
          <tbody>
            {oferta.produtos.map((l) => (
              <tr key={l.produtoid}>
                <th scope="row">{l.nome}</th>
                <td data-rotulo="Quantidade" className="numero">
                  {quantidadeComUnidade(l.quantidade, l.unidade)}
                  {(paraMilesimos(l.alocado) ?? 0) > 0 ? (
                    <span className="suave pequeno"> (alocado: {quantidadeComUnidade(l.alocado, l.unidade)})</span>
                  ) : null}
                </td>
                <td data-rotulo="Preço por unidade" className="numero">
                  {reais(l.valor)}
                </td>
                <td data-rotulo="Subtotal" className="numero">
                  {reais(deCentavos(valorDaQuantidade(paraCentavos(l.valor) ?? 0, paraMilesimos(l.quantidade) ?? 0)))}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total
              </th>
              <td data-rotulo="Total" className="numero">
                <strong>{reais(oferta.total)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
      )}
    </>
  );
}

/** /ciclos/:id/oferta: the supplier's offer in a cycle, usual products first, saved as a draft or final. */
export function Oferta({ id }: { readonly id: string }) {
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.ofertar.ler(id), [id]);
  const nome = estado.fase === 'pronto' ? estado.dados.ciclo?.nome : undefined;
  return (
    <Pagina titulo={nome === undefined ? 'Oferta' : `Oferta em ${nome}`}>
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ ciclo, oferta, produtos }) => {
          if (ciclo === null) return <Falha mensagem="Ciclo não encontrado." />;
          const motivo = motivoSemOferta(ciclo);
          return (
            <>
              {motivo === null ? (
                <Editor ciclo={ciclo} ofertaInicial={oferta} produtos={produtos} />
              ) : (
                <SoLeitura ciclo={ciclo} oferta={oferta} motivo={motivo} />
              )}
              <p className="acoes">
                <Link para={`/ciclos/${ciclo.id}/entregas`}>Minhas entregas neste ciclo</Link>
                <Link para="/entregas">Todos os meus ciclos</Link>
              </p>
            </>
          );
        }}
      </ComCarga>
    </Pagina>
  );
}
