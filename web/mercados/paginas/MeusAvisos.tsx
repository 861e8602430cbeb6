import { useState, type FormEvent } from 'react';
import { mensagemDe } from '../api.ts';
import { Aviso, ComCarga, Falha, Pagina, Sucesso, useCarga, useMarcados } from '../componentes.tsx';
import { PRIMEIRAS } from '../adiantar.ts';
import { definirMeusAvisos, type MeusAvisos as Avisos } from '../consultas.ts';

/** The choice itself: a box per optional kind, the mandatory ones named as always sent. */
function Escolha({ inicial }: { readonly inicial: Avisos }) {
  const [salvos, setSalvos] = useState<Avisos>(inicial);
  const { marcados, alternar: marcar, definir } = useMarcados<string>(inicial.recebe);
  const [salvando, setSalvando] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  const [ok, setOk] = useState(false);
  const opcionais = salvos.tipos.filter((t) => t.opcional);
  const sempre = salvos.tipos.filter((t) => !t.opcional);
  const alternar = (tipo: string, sim: boolean) => {
    setOk(false);
    marcar(tipo, sim);
  };
  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    setErro(null);
    setOk(false);
    setSalvando(true);
    try {
      const novos = await definirMeusAvisos(opcionais.map((t) => t.tipo).filter((t) => marcados.has(t)));
      setSalvos(novos);
      definir(novos.recebe);
      setOk(true);
    } catch (e2) {
      setErro(mensagemDe(e2));
    } finally {
      setSalvando(false);
    }
  };
  return (
    <form onSubmit={(e) => void enviar(e)} noValidate>
      {salvos.ligado ? null : (
        <Aviso>O envio de e-mails está desligado neste serviço: nada é enviado por enquanto.</Aviso>
      )}
      <fieldset>
        <legend>Quais avisos você quer receber por e-mail</legend>
        <ul className="opcoes-avisos">
          {opcionais.map((t) => (
            <li className="campo caixa" key={t.tipo}>
              <input
                type="checkbox"
                id={`aviso-${t.tipo}`}
                checked={marcados.has(t.tipo)}
                onChange={(e) => alternar(t.tipo, e.target.checked)}
              />
              <label htmlFor={`aviso-${t.tipo}`}>{t.nome}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <p className="suave">Sempre enviados: {sempre.map((t) => t.nome.toLowerCase()).join('; ')}.</p>
      {erro === null ? null : <Falha mensagem={erro} />}
      {ok ? <Sucesso>Avisos salvos.</Sucesso> : null}
      <button type="submit" className="botao" disabled={salvando}>
        {salvando ? 'Salvando…' : 'Salvar avisos'}
      </button>
    </form>
  );
}

/** /avisos: the same choice as the Cestas face's /profile/avisos, for the same person. */
export function MeusAvisos() {
  const { estado, recarregar } = useCarga(PRIMEIRAS.avisos.ler, []);
  return (
    <Pagina titulo="Avisos por e-mail">
      <ComCarga estado={estado} recarregar={recarregar}>
        {(avisos) =>
          avisos.cadastro ? (
            <Escolha inicial={avisos} />
          ) : (
            <Aviso>
              Sua conta ainda não tem cadastro na face Cestas, onde ficam as ofertas, os pedidos e os avisos por e-mail.
              Depois do cadastro, você escolhe aqui o que quer receber.
            </Aviso>
          )
        }
      </ComCarga>
    </Pagina>
  );
}
