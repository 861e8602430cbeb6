import { ComCarga, Pagina, useCarga } from '../componentes.tsx';
import { listarMercados } from '../consultas.ts';
import { nomeDoTipo } from '../tipos-de-mercado.ts';
import { Link, navegar, useEndereco } from '../navegacao.tsx';
import { useUsuarioLogado } from '../sessao.tsx';

const SITUACOES = { todos: undefined, ativos: true, inativos: false } as const;
type Situacao = keyof typeof SITUACOES;
const NOMES_SITUACOES: Readonly<Record<Situacao, string>> = {
  todos: 'Todos',
  ativos: 'Só os ativos',
  inativos: 'Só os inativos',
};

function lerSituacao(v: string | null): Situacao {
  return v === 'ativos' || v === 'inativos' ? v : 'todos';
}

/** /mercados: every market, filtered by ativo (the filter lives in the address). */
export function ListaMercados() {
  const usuario = useUsuarioLogado();
  const { busca } = useEndereco();
  const situacao = lerSituacao(busca.get('situacao'));
  const { estado, recarregar } = useCarga(() => listarMercados(SITUACOES[situacao]), [situacao]);
  return (
    <Pagina titulo="Mercados">
      <div className="barra">
        <div className="campo">
          <label htmlFor="filtro-situacao">Situação</label>
          <select
            id="filtro-situacao"
            value={situacao}
            onChange={(e) =>
              navegar(e.target.value === 'todos' ? '/mercados' : `/mercados?situacao=${e.target.value}`, {
                substituir: true,
              })
            }
          >
            {Object.entries(NOMES_SITUACOES).map(([valor, nome]) => (
              <option key={valor} value={valor}>
                {nome}
              </option>
            ))}
          </select>
        </div>
        {usuario.acoes.criarMercado ? (
          <Link para="/mercados/novo" className="botao">
            Novo mercado
          </Link>
        ) : null}
      </div>
      <ComCarga estado={estado} recarregar={recarregar}>
        {(mercados) =>
          mercados.length === 0 ? (
            <p className="aviso" role="status">
              Nenhum mercado {situacao === 'ativos' ? 'ativo' : situacao === 'inativos' ? 'inativo' : 'cadastrado'}.
            </p>
          ) : (
            <ul className="cartoes" aria-label="Mercados encontrados">
              {mercados.map((m) => (
                <li key={m.id}>
                  <Link para={`/mercados/${m.id}`} className="nome">
                    {m.nome}
                  </Link>
                  <span className={m.ativo ? 'etiqueta ativo' : 'etiqueta inativo'}>
                    {m.ativo ? 'Ativo' : 'Inativo'}
                  </span>
                  <p className="suave">
                    {nomeDoTipo(m.tipo)} · administração: {m.admin?.name ?? '—'}
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
