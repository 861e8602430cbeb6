import { Aviso, DiasDeEntrega, Pagina } from '../componentes.tsx';
import { reais } from '../dinheiro.ts';
import { PRIMEIRAS } from '../adiantar.ts';
import { type OfertaComCiclo } from '../fluxo-fornecedor.ts';
import { dataBr, instanteLegivel } from '../formatos.ts';
import { Link } from '../navegacao.tsx';
import { useFuso } from '../sessao.tsx';
import { ListaPaginada, POR_PAGINA, usePaginado } from '../paginado.tsx';

function Cartao({ o }: { readonly o: OfertaComCiclo }) {
  const c = o.ciclo;
  const fuso = useFuso();
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
        {o.finalizada && o.finalizadaEm !== null ? (
          <span className="suave pequeno"> · finalizada em {instanteLegivel(o.finalizadaEm, fuso)}</span>
        ) : null}
      </p>
      <p className="suave pequeno">
        Ofertas de {dataBr(c.dataOfertaInicio)} a {dataBr(c.dataOfertaFim)} · retirada de {dataBr(c.dataRetiradaInicio)}{' '}
        a {dataBr(c.dataRetiradaFim)}
      </p>
      {/* Where and when to deliver, while the cycle is under way and the offer counts. */}
      {o.finalizada && c.fase !== 'encerrado' ? <DiasDeEntrega dias={c.diasDeEntrega} resumo /> : null}
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

/** /entregas: the supplier's cycles with an offer, newest first, past ones included. */
export function Entregas() {
  const pagina = usePaginado(PRIMEIRAS.minhasOfertas.ler, (o) => o.cicloId, POR_PAGINA, []);
  return (
    <Pagina titulo="Minhas entregas">
      <p className="suave">
        Os ciclos em que você ofertou, do mais novo ao mais antigo: o que entregar em cada um e, com a janela aberta, a
        oferta.
      </p>
      <ListaPaginada
        pagina={pagina}
        rotulo="Mostrar ciclos mais antigos"
        vazio={
          <Aviso>
            Você ainda não fez ofertas. Quando um ciclo abrir a janela de oferta, ele aparece na lista de ciclos.
          </Aviso>
        }
      >
        {(ofertas) => (
          <ul className="cartoes ciclos-fornecedor">
            {ofertas.map((o) => (
              <Cartao key={o.cicloId} o={o} />
            ))}
          </ul>
        )}
      </ListaPaginada>
    </Pagina>
  );
}
