import { ComCarga, Pagina, useCarga } from '../componentes.tsx';
import { PRIMEIRAS } from '../adiantar.ts';
import type { ResumoMercado } from '../consultas.ts';
import { NOMES_FASES } from '../ciclo-comum.ts';
import { reais } from '../dinheiro.ts';
import { nomeDoTipo } from '../tipos-de-mercado.ts';
import { Link } from '../navegacao.tsx';
import { DESCRICOES_PERFIS } from '../perfis.ts';
import { destinoDoPasso, prazoLegivel, type CicloComPassos, type PassoDoCiclo } from '../proximos-passos.ts';
import { useEnderecoCestas, useFuso, useUsuarioLogado } from '../sessao.tsx';

function ListaCurta({ mercados, vazio }: { readonly mercados: readonly ResumoMercado[]; readonly vazio: string }) {
  if (mercados.length === 0) return <p className="suave">{vazio}</p>;
  return (
    <ul className="cartoes">
      {mercados.map((m) => (
        <li key={m.id}>
          <Link para={`/mercados/${m.id}`}>{m.nome}</Link>
          <span className="suave"> · {nomeDoTipo(m.tipo)}</span>
          {m.ativo ? null : <span className="etiqueta inativo">Inativo</span>}
        </li>
      ))}
    </ul>
  );
}

/** The markets the person administers (adminId, from the API): one quick link each, first on the page. */
function MeusMercados({ mercados }: { readonly mercados: readonly ResumoMercado[] }) {
  if (mercados.length === 0) return <p className="suave">Nenhum mercado está com você.</p>;
  return (
    <ul className="meus-mercados">
      {mercados.map((m) => (
        <li key={m.id}>
          <Link para={`/mercados/${m.id}`} className="botao">
            Meu mercado: {m.nome}
          </Link>
          <span className="suave pequeno"> {nomeDoTipo(m.tipo)} · seus ciclos, pedidos e preços</span>
        </li>
      ))}
    </ul>
  );
}

/** One step: a link to where it is done (or its words alone), and until when. */
function Passo({ passo, cicloId }: { readonly passo: PassoDoCiclo; readonly cicloId: string }) {
  const cestas = useEnderecoCestas();
  const fuso = useFuso();
  const destino = destinoDoPasso(passo, cicloId, cestas);
  const texto = (
    <>
      <span aria-hidden="true" className="marca-passo">
        {passo.feito ? '✓' : '→'}
      </span>{' '}
      {passo.feito ? <span className="visualmente-oculto">Feito: </span> : null}
      {passo.texto}
    </>
  );
  return (
    <li className={passo.feito ? 'feito' : 'proxima'}>
      {destino === null ? (
        texto
      ) : destino.interno ? (
        <Link para={destino.para}>{texto}</Link>
      ) : (
        <a href={destino.para}>{texto}</a>
      )}
      {passo.prazo === null ? null : (
        <span className="prazo">
          {passo.feito ? 'Pode alterar' : 'Prazo'}: {prazoLegivel(passo.prazo, fuso)}
        </span>
      )}
    </li>
  );
}

function CicloDosPassos({ c }: { readonly c: CicloComPassos }) {
  const id = `passos-${c.ciclo.id}`;
  return (
    <li>
      <h3 id={id} className="nome">
        {c.ciclo.nome} <span className="etiqueta fase">{NOMES_FASES[c.ciclo.fase]}</span>
      </h3>
      <ul className="passos" aria-labelledby={id}>
        {c.passos.map((p) => (
          <Passo key={`${p.acao}-${p.mercadoId ?? ''}`} passo={p} cicloId={c.ciclo.id} />
        ))}
      </ul>
    </li>
  );
}

/** What the person has left to do: paying what they owe, then each cycle's steps, as the Cestas dashboard lists them. */
function ProximosPassos({
  estado,
  recarregar,
}: {
  readonly estado: ReturnType<typeof usePassos>['estado'];
  readonly recarregar: () => void;
}) {
  return (
    <section aria-labelledby="titulo-passos" className="proximos-passos">
      <h2 id="titulo-passos">Seus próximos passos</h2>
      <ComCarga estado={estado} recarregar={recarregar}>
        {({ ciclos, aPagar }) =>
          ciclos.length === 0 && aPagar === null ? (
            <p className="suave">
              Nada a fazer nos ciclos agora. Quando abrir uma janela em que você participa (ofertas, pedidos, entrega),
              o passo aparece aqui.
            </p>
          ) : (
            <>
              {aPagar === null ? null : (
                <p className="a-pagar">
                  <Link para="/pedidos" className="botao">
                    Pagar {reais(aPagar)} com Pix
                  </Link>{' '}
                  <span className="suave pequeno">um só Pix paga tudo o que você deve</span>
                </p>
              )}
              {ciclos.length === 0 ? null : (
                <ul className="cartoes ciclos-passos">
                  {ciclos.map((c) => (
                    <CicloDosPassos key={c.ciclo.id} c={c} />
                  ))}
                </ul>
              )}
            </>
          )
        }
      </ComCarga>
    </section>
  );
}

const usePassos = () => useCarga(() => PRIMEIRAS.passos.ler(), []);

/**
 * /dashboard: who I am, my next steps, my profiles, the way to the markets, then (once loaded) the
 * markets I administer and the ones I can see. What comes after the steps is drawn once they are
 * in: drawn before, it would be pushed down when they arrive (a layout shift of most of the page).
 */
export function Painel() {
  const usuario = useUsuarioLogado();
  const passos = usePassos();
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.mercados.ler(), []);
  return (
    <Pagina titulo="Painel">
      <section aria-labelledby="titulo-conta" className="identidade">
        <h2 id="titulo-conta">Olá, {usuario.name}!</h2>
        <p className="suave">{usuario.email}</p>
      </section>
      <ProximosPassos estado={passos.estado} recarregar={passos.recarregar} />
      {passos.estado.fase === 'carregando' ? null : (
        <>
          <section aria-labelledby="titulo-perfis">
            <h2 id="titulo-perfis">Seus perfis</h2>
            {usuario.profiles.length === 0 ? (
              <p>Você ainda não tem nenhum perfil. Fale com a administração da comunidade.</p>
            ) : (
              <ul className="perfis">
                {usuario.profiles.map((p) => (
                  <li key={p}>
                    <strong>{p}</strong>
                    <br />
                    <span className="suave">{DESCRICOES_PERFIS[p]}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {/* Before the lists, which arrive later and would push it down. */}
          <p className="acoes">
            <Link para="/mercados" className="botao">
              Ver todos os mercados
            </Link>
            {usuario.acoes.criarMercado ? (
              <Link para="/mercados/novo" className="botao secundario">
                Novo mercado
              </Link>
            ) : null}
          </p>
          <ComCarga estado={estado} recarregar={recarregar}>
            {(mercados) => (
              <>
                {usuario.acoes.gerirAlgumMercado ? (
                  <section aria-labelledby="titulo-administro">
                    <h2 id="titulo-administro">Mercados que você administra</h2>
                    <MeusMercados mercados={mercados.filter((m) => m.adminId === String(usuario.id))} />
                  </section>
                ) : null}
                <section aria-labelledby="titulo-ativos">
                  <h2 id="titulo-ativos">Mercados ativos</h2>
                  <ListaCurta mercados={mercados.filter((m) => m.ativo)} vazio="Nenhum mercado ativo no momento." />
                </section>
              </>
            )}
          </ComCarga>
        </>
      )}
    </Pagina>
  );
}
