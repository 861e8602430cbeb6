/** Pieces both pages of the pickup app use: the notices, the login link that comes back, words. */
import { useEffect, useRef, type ReactNode } from 'react';
import { dataBr } from '../mercados/formatos.ts';

/** The login, coming back to this page afterwards (the Mercados face's /login?voltar=). */
export function enderecoDeLogin(caminho: string): string {
  return `/login?voltar=${encodeURIComponent(caminho)}`;
}

/** "1 ação" / "3 ações". */
export function acoes(n: number): string {
  return `${n} ${n === 1 ? 'ação' : 'ações'}`;
}

/** "sábado, 05/12/2026, das 08:00 às 12:00", from what the point has. */
export function quandoRetirar(p: {
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}): string | null {
  if (p.dataRetirada === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(p.dataRetirada);
  const dia =
    m === null
      ? p.dataRetirada
      : `${new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toLocaleDateString('pt-BR', { weekday: 'long', timeZone: 'UTC' })}, ${dataBr(p.dataRetirada)}`;
  if (p.horaInicio !== null && p.horaFim !== null) return `${dia}, das ${p.horaInicio} às ${p.horaFim}`;
  if (p.horaInicio !== null) return `${dia}, a partir das ${p.horaInicio}`;
  return dia;
}

/** "14:05" of an instant, on the device's clock (the pickup happens where the phone is). */
export function hora(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : t.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' });
}

/** "05/12 às 14:05". */
export function diaEHora(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  return `${t.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit' })} às ${hora(iso)}`;
}

export function SemRede() {
  return (
    <div className="faixa sem-rede" role="status">
      <p>
        <strong>Sem internet.</strong> Continue normalmente: o que você marcar fica guardado neste aparelho e é enviado
        quando a conexão voltar.
      </p>
    </div>
  );
}

/** The session ended: the queue is kept and goes after the login. */
export function SessaoExpirada({ esperando, caminho }: { readonly esperando: number; readonly caminho: string }) {
  return (
    <div className="faixa sessao" role="alert">
      <p>
        {esperando > 0 ? (
          <>
            <strong>Sua sessão expirou: entre de novo para enviar {acoes(esperando)}.</strong> Elas continuam guardadas
            neste aparelho.
          </>
        ) : (
          <strong>Sua sessão expirou: entre de novo para ver o que os outros aparelhos registraram.</strong>
        )}
      </p>
      <p>
        <a className="botao" href={enderecoDeLogin(caminho)}>
          Entrar de novo
        </a>
      </p>
    </div>
  );
}

/** The page's heading; focus moves to it when the page changes, so a screen reader hears where it arrived. */
export function Titulo({ children, texto }: { readonly children: ReactNode; readonly texto: string }) {
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${texto} · Retirada · Cestaria`;
    h1.current?.focus({ preventScroll: true });
  }, [texto]);
  return (
    <h1 ref={h1} tabIndex={-1}>
      {children}
    </h1>
  );
}
