import { useId, useState, type FormEvent } from 'react';
import { mensagemDe } from '../api.ts';
import { ComCarga, Falha, Pagina, Sucesso, useCarga, useMarcados } from '../componentes.tsx';
import { PRIMEIRAS } from '../adiantar.ts';
import { atribuirPerfis, type Conta } from '../consultas.ts';
import { Link } from '../navegacao.tsx';
import { DESCRICOES_PERFIS, PERFIS, type NomePerfil } from '../perfis.ts';
import { useUsuarioLogado } from '../sessao.tsx';

/** One account and its profiles, saved on its own (the server keeps the last Administrador). */
function CartaoConta({ conta, eu }: { readonly conta: Conta; readonly eu: boolean }) {
  const [salvos, setSalvos] = useState<readonly NomePerfil[]>(conta.profiles);
  const { marcados, alternar: marcar, definir } = useMarcados<NomePerfil>(conta.profiles);
  const [salvando, setSalvando] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  const [ok, setOk] = useState(false);
  const id = useId();
  const mudou = PERFIS.some((p) => marcados.has(p) !== salvos.includes(p));

  const alternar = (p: NomePerfil, sim: boolean) => {
    setOk(false);
    marcar(p, sim);
  };
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    setErro(null);
    setOk(false);
    if (marcados.size === 0) {
      setErro('Marque pelo menos um perfil.');
      return;
    }
    setSalvando(true);
    try {
      const perfis = await atribuirPerfis(
        conta.id,
        PERFIS.filter((p) => marcados.has(p)),
      );
      setSalvos(perfis);
      definir(perfis);
      setOk(true);
    } catch (e2) {
      setErro(mensagemDe(e2));
    } finally {
      setSalvando(false);
    }
  };

  return (
    <li className="conta">
      <form onSubmit={(e) => void enviar(e)} noValidate>
        <fieldset>
          <legend>
            <strong>{conta.name}</strong>
            {eu ? ' (você)' : ''}
            {conta.email === null ? null : (
              <span className="suave">
                {' '}
                · {conta.email}
                {conta.emailVerificado === false ? ' (e-mail não confirmado pelo provedor)' : ''}
              </span>
            )}
          </legend>
          {conta.mercados.length === 0 ? null : (
            <p className="suave pequeno">
              Administra:{' '}
              {conta.mercados.map((m, i) => (
                <span key={m.id}>
                  {i > 0 ? ', ' : ''}
                  <Link para={`/mercados/${m.id}`}>{m.nome}</Link>
                </span>
              ))}
            </p>
          )}
          <ul className="opcoes-perfis">
            {PERFIS.map((p) => (
              <li key={p} className="campo caixa">
                <input
                  id={`${id}-${p}`}
                  type="checkbox"
                  checked={marcados.has(p)}
                  onChange={(e) => alternar(p, e.target.checked)}
                  aria-describedby={`${id}-${p}-d`}
                />
                <label htmlFor={`${id}-${p}`}>{p}</label>
                <span id={`${id}-${p}-d`} className="visualmente-oculto">
                  {DESCRICOES_PERFIS[p]}
                </span>
              </li>
            ))}
          </ul>
          <button type="submit" className="botao secundario" disabled={salvando || !mudou}>
            {salvando ? 'Salvando…' : `Salvar perfis de ${conta.name}`}
          </button>
          {ok ? <Sucesso>Perfis de {conta.name} salvos.</Sucesso> : null}
          {erro === null ? null : <Falha mensagem={erro} />}
        </fieldset>
      </form>
    </li>
  );
}

/** /usuarios (Administrador): every account and its profiles. */
export function Usuarios() {
  const usuario = useUsuarioLogado();
  const { estado, recarregar } = useCarga(() => PRIMEIRAS.contas.ler(), []);
  return (
    <Pagina titulo="Usuários e perfis">
      <p>
        Marque os perfis de cada conta e salve. Ninguém retira o próprio perfil Administrador, e o último Administrador
        fica.
      </p>
      <details className="legenda">
        <summary>O que cada perfil pode fazer</summary>
        <dl>
          {PERFIS.map((p) => (
            <div key={p}>
              <dt>{p}</dt>
              <dd>{DESCRICOES_PERFIS[p]}</dd>
            </div>
          ))}
        </dl>
      </details>
      <ComCarga estado={estado} recarregar={recarregar}>
        {(contas) => (
          <ul className="contas" aria-label="Contas">
            {contas.map((c) => (
              <CartaoConta key={c.id} conta={c} eu={c.id === String(usuario.id)} />
            ))}
          </ul>
        )}
      </ComCarga>
    </Pagina>
  );
}
