import { Pagina } from '../componentes.tsx';
import { useEndereco } from '../navegacao.tsx';

/** Why a login was refused, as the server's callback names it in `?error=`. */
const RECUSAS: Readonly<Record<string, { readonly motivo: string; readonly depois: string }>> = {
  auth_failed: {
    motivo: 'Não foi possível entrar. O login foi cancelado, expirou ou o provedor de login não respondeu.',
    depois: 'Nenhum cadastro foi criado ou alterado. Você pode tentar de novo.',
  },
  outra_conta: {
    motivo: 'Este e-mail já está ligado a outra conta do provedor de login.',
    depois:
      'Se você trocou de conta no provedor, peça à coordenação (perfil master) para liberar o seu cadastro e entre de novo. Nada foi criado ou alterado.',
  },
  email_em_uso: {
    motivo: 'Este e-mail já pertence a outra conta da Cestaria.',
    depois:
      'Entre com a conta do provedor que você já usa aqui, ou fale com a coordenação. Nada foi criado ou alterado.',
  },
};

/**
 * /login as the client shows it: the server sends people straight to the provider, except after
 * a refused login (`?error=…`), when this page explains why and offers to try again.
 */
export function Login() {
  const { busca } = useEndereco();
  const recusa = RECUSAS[busca.get('error') ?? ''];
  return (
    <Pagina titulo="Entrar">
      {recusa !== undefined ? (
        <>
          <div className="alerta" role="alert">
            <p>{recusa.motivo}</p>
          </div>
          <p>{recusa.depois}</p>
        </>
      ) : (
        <p>Você entra com a sua conta do provedor de login da comunidade.</p>
      )}
      <p>
        <a className="botao" href="/login">
          {recusa !== undefined ? 'Entrar novamente' : 'Entrar'}
        </a>
      </p>
    </Pagina>
  );
}
