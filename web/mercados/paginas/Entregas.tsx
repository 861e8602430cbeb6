import { useState } from 'react';
import { mensagemDe } from '../api.ts';
import { Aviso, ComCarga, Falha, Pagina, useCarga } from '../componentes.tsx';
import { reais } from '../dinheiro.ts';
import { dataLegivel, instanteLegivel, listarMinhasOfertas, type OfertaComCiclo } from '../fluxo-fornecedor.ts';
import { Link } from '../navegacao.tsx';

const POR_PAGINA = 20;

function Cartao({ o }: { readonly o: OfertaComCiclo }) {
  const c = o.ciclo;
  return (
    <li>
      <h2 className="nome">{c.nome}</h2>
      {o.finalizada ? (
        <span className="etiqueta ativo">oferta finalizada</span>
      ) : (
        <span className="etiqueta inativo">rascunho</span>
      )}
      <p>
        Oferta: <strong>{reais(o.total)}</strong>
        {o.finalizada && o.finalizadaEm !== null ? <span className="suave pequeno"> · finalizada em {instanteLegivel(o.finalizadaEm)}</span> : null}
      </p>
      <p className="suave pequeno">
        Ofertas de {dataLegivel(c.dataOfertaInicio)} a {dataLegivel(c.dataOfertaFim)} · retirada de {dataLegivel(c.dataRetiradaInicio)} a {dataLegivel(c.dataRetiradaFim)}
      </p>
      <p className="acoes">
        <Link para={`/ciclos/${c.id}/entregas`} className="botao secundario">
          Entregas<span className="visualmente-oculto"> de {c.nome}</span>
        </Link>
        {c.acoes.ofertar ? (
          <Link para={`/ciclos/${c.id}/oferta`} className="botao">
            Editar oferta<span className="visualmente-oculto"> de {c.nome}</span>
          </Link>
        ) : null}
      </p>
    </li>
  );
}

function Lista({ primeiras }: { readonly primeiras: readonly OfertaComCiclo[] }) {
  const [ofertas, setOfertas] = useState<readonly OfertaComCiclo[]>(primeiras);
  const [fim, setFim] = useState(primeiras.length < POR_PAGINA);
  const [carregando, setCarregando] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  if (ofertas.length === 0) {
    return <Aviso>Você ainda não fez ofertas. Quando um ciclo abrir a janela de oferta, ele aparece na lista de ciclos.</Aviso>;
  }
  const mais = async () => {
    setCarregando(true);
    setErro(null);
    try {
      const proximas = await listarMinhasOfertas(POR_PAGINA, ofertas.at(-1)?.cicloId ?? null);
      setOfertas((atual) => [...atual, ...proximas]);
      setFim(proximas.length < POR_PAGINA);
    } catch (e) {
      setErro(mensagemDe(e));
    } finally {
      setCarregando(false);
    }
  };
  return (
    <>
      <ul className="cartoes ciclos-fornecedor">
        {ofertas.map((o) => (
          <Cartao key={o.cicloId} o={o} />
        ))}
      </ul>
      {erro === null ? null : <Falha mensagem={erro} tentarDeNovo={() => void mais()} />}
      {fim ? null : (
        <p>
          <button type="button" className="botao secundario" onClick={() => void mais()} disabled={carregando}>
            {carregando ? 'Carregando…' : 'Mostrar ciclos mais antigos'}
          </button>
        </p>
      )}
    </>
  );
}

/** /entregas: the supplier's cycles with an offer, newest first, past ones included. */
export function Entregas() {
  const { estado, recarregar } = useCarga(() => listarMinhasOfertas(POR_PAGINA, null), []);
  return (
    <Pagina titulo="Minhas entregas">
      <p className="suave">Os ciclos em que você ofertou, do mais novo ao mais antigo: o que entregar em cada um e, com a janela aberta, a oferta.</p>
      <ComCarga estado={estado} recarregar={recarregar}>
        {(ofertas) => <Lista primeiras={ofertas} />}
      </ComCarga>
    </Pagina>
  );
}
