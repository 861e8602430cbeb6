/** /retirada: the points the person may work at (online), and those this device already keeps (offline). */
import { useEffect, useState } from 'react';
import { Link } from '../mercados/navegacao.tsx';
import { ErroApi, meusPontos } from './api.ts';
import { SemRede, SessaoExpirada, Titulo, acoes, quandoRetirar } from './comum.tsx';
import { filaPorPonto, guardarPontos, pontosGuardados, retiradasGuardadas } from './loja.ts';
import { conferirSessao, sincronizarPonto, useConexao } from './sincronia.ts';
import { chaveDoPonto, type PontoDeRetirada } from './tipos.ts';

interface Linha extends PontoDeRetirada {
  readonly guardado: boolean;
  readonly esperando: number;
}

type Estado =
  | { readonly fase: 'carregando' }
  | { readonly fase: 'pronto'; readonly linhas: readonly Linha[] }
  | { readonly fase: 'erro'; readonly mensagem: string; readonly linhas: readonly Linha[] };

export function ListaDePontos() {
  const online = useConexao();
  const [estado, setEstado] = useState<Estado>({ fase: 'carregando' });
  const [semSessao, setSemSessao] = useState(false);

  useEffect(() => {
    let vivo = true;
    void (async () => {
      let [lista, guardadas, fila] = await Promise.all([pontosGuardados(), retiradasGuardadas(), filaPorPonto()]);
      const montar = (pontos: readonly PontoDeRetirada[]): Linha[] => {
        const porChave = new Map<string, PontoDeRetirada>();
        for (const p of pontos) porChave.set(chaveDoPonto(p.cicloId, p.pontoId), p);
        // A point kept here stays listed offline even when the server's list no longer has it.
        for (const g of guardadas) {
          const d = g.dados;
          if (!porChave.has(g.ponto))
            porChave.set(g.ponto, {
              cicloId: d.cicloId,
              cicloNome: d.cicloNome,
              pontoId: d.pontoId,
              pontoNome: d.pontoNome,
              dataRetirada: d.dataRetirada,
              horaInicio: d.horaInicio,
              horaFim: d.horaFim,
              pedidos: d.pedidos.length,
            });
        }
        const chaves = new Set(guardadas.map((g) => g.ponto));
        return [...porChave.entries()].map(([chave, p]) => ({
          ...p,
          guardado: chaves.has(chave),
          esperando: fila.get(chave) ?? 0,
        }));
      };
      if (!vivo) return;
      setEstado({ fase: 'pronto', linhas: montar(lista ?? []) });
      if (!navigator.onLine) return;
      // Another person on this phone: what the previous one kept is forgotten (loja.ts trocarDeConta).
      const sessao = await conferirSessao();
      if (!vivo) return;
      if (sessao.tipo === 'sessao') {
        setSemSessao(true);
        return;
      }
      if (sessao.tipo === 'ok' && sessao.mudou) {
        [lista, guardadas, fila] = await Promise.all([pontosGuardados(), retiradasGuardadas(), filaPorPonto()]);
        if (vivo) setEstado({ fase: 'pronto', linhas: montar(lista ?? []) });
      }
      try {
        const pontos = await meusPontos();
        await guardarPontos(pontos);
        if (vivo) setEstado({ fase: 'pronto', linhas: montar(pontos) });
        // What waits in the queue of any point goes now, without opening each one.
        for (const [chave, n] of fila) {
          const [cicloId = '', pontoId = ''] = chave.split('/');
          if (n === 0 || !vivo) continue;
          const d = await sincronizarPonto(cicloId, pontoId);
          if (d.tipo === 'sessao') setSemSessao(true);
          if (d.tipo !== 'ok') break;
          const agora = await filaPorPonto();
          if (vivo)
            setEstado((e) =>
              e.fase === 'carregando'
                ? e
                : {
                    ...e,
                    linhas: e.linhas.map((l) => ({
                      ...l,
                      esperando: agora.get(chaveDoPonto(l.cicloId, l.pontoId)) ?? 0,
                    })),
                  },
            );
        }
      } catch (e) {
        if (!vivo) return;
        if (e instanceof ErroApi && e.codigo === 'UNAUTHENTICATED') setSemSessao(true);
        else if (!(e instanceof ErroApi && e.codigo === 'SEM_CONEXAO'))
          setEstado({
            fase: 'erro',
            mensagem: e instanceof Error ? e.message : String(e),
            linhas: montar(lista ?? []),
          });
      }
    })();
    return () => {
      vivo = false;
    };
  }, [online]);

  const linhas = estado.fase === 'carregando' ? [] : estado.linhas;
  const esperando = linhas.reduce((s, l) => s + l.esperando, 0);
  return (
    <>
      <Titulo texto="Pontos de retirada">Pontos de retirada</Titulo>
      {online ? null : <SemRede />}
      {semSessao ? <SessaoExpirada esperando={esperando} caminho="/retirada" /> : null}
      {estado.fase === 'erro' ? (
        <div className="alerta" role="alert">
          <p>{estado.mensagem}</p>
        </div>
      ) : null}
      {estado.fase === 'carregando' ? (
        <p className="carregando" role="status">
          <span className="girando" aria-hidden="true" /> Carregando os pontos…
        </p>
      ) : linhas.length === 0 ? (
        <div className="aviso" role="status">
          <p>
            <strong>Nenhum ponto de retirada para você agora.</strong>
          </p>
          <p>
            A coordenação indica quem trabalha na retirada de cada ponto, no ciclo. A retirada abre quando os pedidos do
            ciclo se encerram.
            {online ? '' : ' Sem internet, aparecem aqui só os pontos já abertos neste aparelho.'}
          </p>
        </div>
      ) : (
        <>
          <p className="suave">
            Abra o seu ponto uma vez com internet: depois ele funciona neste aparelho mesmo sem sinal.
          </p>
          <ul className="lista-pontos">
            {linhas.map((l) => (
              <li key={chaveDoPonto(l.cicloId, l.pontoId)}>
                <Link para={`/retirada/${l.cicloId}/${l.pontoId}`} className="cartao-ponto">
                  <span className="nome">{l.pontoNome}</span>
                  <span>{l.cicloNome}</span>
                  {quandoRetirar(l) === null ? null : <span>{quandoRetirar(l)}</span>}
                  <span>
                    {l.pedidos} {l.pedidos === 1 ? 'pedido' : 'pedidos'}
                    {l.guardado ? ' · guardado neste aparelho' : ''}
                  </span>
                  {l.esperando > 0 ? (
                    <span className="etiqueta pendente">{acoes(l.esperando)} esperando envio</span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
