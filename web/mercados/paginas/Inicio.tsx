import { Carregando, Falha, Pagina } from '../componentes.tsx';
import { Link } from '../navegacao.tsx';
import { useSessao } from '../sessao.tsx';

/** The landing page: what this is, and the way in. */
export function Inicio() {
  const { estado, recarregar } = useSessao();
  return (
    <Pagina titulo="Mercados da comunidade">
      <p>
        Aqui a comunidade organiza os seus mercados: cestas, lotes e venda direta, com os preços de cada mercado sobre o
        catálogo comum de produtos.
      </p>
      {estado.fase === 'carregando' ? <Carregando texto="Verificando a sua sessão…" /> : null}
      {estado.fase === 'erro' ? <Falha mensagem={estado.mensagem} tentarDeNovo={() => void recarregar()} /> : null}
      {estado.fase === 'pronto' && estado.status.authenticated ? (
        <>
          <p>
            Você entrou como <strong>{estado.status.user.name}</strong>.
          </p>
          <p>
            <Link para="/dashboard" className="botao">
              Ir para o painel
            </Link>
          </p>
        </>
      ) : null}
      {estado.fase === 'pronto' && !estado.status.authenticated ? (
        <>
          <p>Entre com a sua conta do provedor de login para continuar.</p>
          <p>
            <a className="botao" href="/login">
              Entrar
            </a>
          </p>
        </>
      ) : null}
    </Pagina>
  );
}
