import { Pagina } from '../componentes.tsx';
import { Link } from '../navegacao.tsx';
import { useUsuario } from '../sessao.tsx';

/** Where a guard sends someone whose profile does not allow the page. */
export function NaoAutorizado() {
  const usuario = useUsuario();
  return (
    <Pagina titulo="Acesso negado">
      <div className="alerta" role="alert">
        <p>Seu perfil não permite acessar esta página.</p>
      </div>
      {usuario === null ? (
        <p>
          <a className="botao" href="/login">
            Entrar
          </a>
        </p>
      ) : (
        <>
          <p>
            Seus perfis: {usuario.profiles.length === 0 ? 'nenhum' : usuario.profiles.join(', ')}. Se precisar de outro
            perfil, fale com a administração da comunidade.
          </p>
          <p>
            <Link para="/dashboard" className="botao">
              Voltar ao painel
            </Link>
          </p>
        </>
      )}
    </Pagina>
  );
}

export function NaoEncontrada() {
  return (
    <Pagina titulo="Página não encontrada">
      <div className="alerta" role="alert">
        <p>Esta página não existe.</p>
      </div>
      <p>
        <Link para="/">Voltar ao início</Link>
      </p>
    </Pagina>
  );
}
