import { Pagina } from '../componentes.tsx';
import { useEndereco } from '../navegacao.tsx';

/**
 * /login as the client shows it: the server sends people straight to the provider, except after
 * a failed login (`?error=auth_failed`), when this page explains and offers to try again.
 */
export function Login() {
  const { busca } = useEndereco();
  const falhou = busca.get('error') === 'auth_failed';
  return (
    <Pagina titulo="Entrar">
      {falhou ? (
        <>
          <div className="alerta" role="alert">
            <p>Não foi possível entrar. O login foi cancelado, expirou ou o provedor de login não respondeu.</p>
          </div>
          <p>Nenhum cadastro foi criado ou alterado. Você pode tentar de novo.</p>
        </>
      ) : (
        <p>Você entra com a sua conta do provedor de login da comunidade.</p>
      )}
      <p>
        <a className="botao" href="/login">
          {falhou ? 'Entrar novamente' : 'Entrar'}
        </a>
      </p>
    </Pagina>
  );
}
