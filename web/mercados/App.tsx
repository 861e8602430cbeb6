/** The page frame and the table of the client's pages, with what each one requires. */
import { useState, type ReactNode } from 'react';
import { mensagemDe, sair, type AcoesDaConta } from './api.ts';
import { Falha } from './componentes.tsx';
import { Link, casar, navegar, useEndereco } from './navegacao.tsx';
import { Protegida, useEnderecoCestas, useSessao, useUsuario } from './sessao.tsx';
import { PaginaSobDemanda, pagina, precarregar } from './carregamento.tsx';
import { NaoAutorizado, NaoEncontrada } from './paginas/Avisos.tsx';
import { PRIMEIRAS } from './adiantar.ts';
import { CICLOS_DO_MERCADO_POR_PAGINA } from './fluxo-mercado.ts';
import { primeiraPagina } from './paginado.tsx';

// Each page is a chunk of its own, fetched when first drawn (carregamento.tsx).
const Inicio = pagina(() => import('./paginas/Inicio.tsx'), 'Inicio');
const Login = pagina(() => import('./paginas/Login.tsx'), 'Login');
const Painel = pagina(() => import('./paginas/Painel.tsx'), 'Painel');
const ListaMercados = pagina(() => import('./paginas/ListaMercados.tsx'), 'ListaMercados');
const DetalheMercado = pagina(() => import('./paginas/DetalheMercado.tsx'), 'DetalheMercado');
const FormularioMercado = pagina(() => import('./paginas/FormularioMercado.tsx'), 'FormularioMercado');
const EditorPrecos = pagina(() => import('./paginas/EditorPrecos.tsx'), 'EditorPrecos');
const Usuarios = pagina(() => import('./paginas/Usuarios.tsx'), 'Usuarios');
const MeusAvisos = pagina(() => import('./paginas/MeusAvisos.tsx'), 'MeusAvisos');
const Ciclos = pagina(() => import('./paginas/Ciclos.tsx'), 'Ciclos');
const FazerPedido = pagina(() => import('./paginas/FazerPedido.tsx'), 'FazerPedido');
const MeusPedidos = pagina(() => import('./paginas/MeusPedidos.tsx'), 'MeusPedidos');
const Oferta = pagina(() => import('./paginas/Oferta.tsx'), 'Oferta');
const MinhasEntregas = pagina(() => import('./paginas/MinhasEntregas.tsx'), 'MinhasEntregas');
const Entregas = pagina(() => import('./paginas/Entregas.tsx'), 'Entregas');
const PedidosDoMercado = pagina(() => import('./paginas/PedidosDoMercado.tsx'), 'PedidosDoMercado');
const MercadosDoCiclo = pagina(() => import('./paginas/MercadosDoCiclo.tsx'), 'MercadosDoCiclo');

type Parametros = Readonly<Record<string, string>>;

interface Rota {
  readonly padrao: string;
  /** Absent: public. `true`: logged in. An action: logged in, and the server's `acoes` allow it. */
  readonly exige?: true | keyof AcoesDaConta;
  readonly pagina: (p: Parametros) => ReactNode;
  /** Starts the page's first query (adiantar.ts), when its data comes in one call. */
  readonly adiantar?: (p: Parametros) => void;
}

// NOTE: /mercados/novo comes before /mercados/:id, which would match it too.
export const ROTAS: readonly Rota[] = [
  { padrao: '/', pagina: () => <Inicio /> },
  { padrao: '/login', pagina: () => <Login /> },
  { padrao: '/unauthorized', pagina: () => <NaoAutorizado /> },
  {
    padrao: '/dashboard',
    exige: true,
    pagina: () => <Painel />,
    adiantar: () => {
      PRIMEIRAS.passos.adiantar();
      PRIMEIRAS.mercados.adiantar();
    },
  },
  { padrao: '/mercados', exige: true, pagina: () => <ListaMercados /> },
  { padrao: '/mercados/novo', exige: 'criarMercado', pagina: () => <FormularioMercado id={null} /> },
  {
    padrao: '/mercados/:id',
    exige: true,
    pagina: (p) => <DetalheMercado key={p.id} id={p.id ?? ''} />,
    adiantar: (p) => {
      PRIMEIRAS.mercado.adiantar(p.id ?? '');
      PRIMEIRAS.ciclosDoMercado.adiantar(p.id ?? '', ...primeiraPagina(CICLOS_DO_MERCADO_POR_PAGINA));
    },
  },
  {
    padrao: '/mercados/:id/editar',
    exige: 'gerirAlgumMercado',
    pagina: (p) => <FormularioMercado key={p.id} id={p.id ?? ''} />,
  },
  {
    padrao: '/mercados/:id/precos',
    exige: 'gerirAlgumMercado',
    pagina: (p) => <EditorPrecos key={p.id} id={p.id ?? ''} />,
  },
  {
    padrao: '/usuarios',
    exige: 'listarUsuarios',
    pagina: () => <Usuarios />,
    adiantar: () => PRIMEIRAS.contas.adiantar(),
  },
  { padrao: '/avisos', exige: true, pagina: () => <MeusAvisos />, adiantar: () => PRIMEIRAS.avisos.adiantar() },
  // Consumidor (issue 18): the cycles, an order in one, and one's orders.
  {
    padrao: '/ciclos',
    exige: true,
    pagina: () => <Ciclos />,
    adiantar: () => PRIMEIRAS.ciclos.adiantar(...primeiraPagina()),
  },
  { padrao: '/ciclos/:id/pedido', exige: true, pagina: (p) => <FazerPedido key={p.id} id={p.id ?? ''} /> },
  { padrao: '/pedidos', exige: 'pedir', pagina: () => <MeusPedidos /> },
  // Fornecedor (issue 18): the offer in a cycle, what to deliver, and the cycles offered in.
  {
    padrao: '/ciclos/:id/oferta',
    exige: 'ofertar',
    pagina: (p) => <Oferta key={p.id} id={p.id ?? ''} />,
    adiantar: (p) => PRIMEIRAS.ofertar.adiantar(p.id ?? ''),
  },
  {
    padrao: '/ciclos/:id/entregas',
    exige: 'ofertar',
    pagina: (p) => <MinhasEntregas key={p.id} id={p.id ?? ''} />,
    adiantar: (p) => PRIMEIRAS.entregas.adiantar(p.id ?? ''),
  },
  {
    padrao: '/entregas',
    exige: 'ofertar',
    pagina: () => <Entregas />,
    adiantar: () => PRIMEIRAS.minhasOfertas.adiantar(...primeiraPagina()),
  },
  // AdminMercado and Administrador (issue 18). The API decides who sees a market's orders (Mercado.acoes.verPedidos); the page shows its refusal.
  {
    padrao: '/mercados/:id/ciclos/:cicloId/pedidos',
    exige: true,
    pagina: (p) => <PedidosDoMercado key={`${p.id}/${p.cicloId}`} mercadoId={p.id ?? ''} cicloId={p.cicloId ?? ''} />,
  },
  {
    padrao: '/ciclos/:id/mercados',
    exige: 'definirMercadosDoCiclo',
    pagina: (p) => <MercadosDoCiclo key={p.id} id={p.id ?? ''} />,
    adiantar: (p) => PRIMEIRAS.mercadosDoCiclo.adiantar(p.id ?? ''),
  },
];

function BotaoSair() {
  const { esquecer } = useSessao();
  const [saindo, setSaindo] = useState(false);
  const [erro, setErro] = useState<string | null>(null);
  const clicar = async () => {
    setSaindo(true);
    setErro(null);
    try {
      await sair();
      esquecer();
      navegar('/');
    } catch (e) {
      setErro(mensagemDe(e));
    } finally {
      setSaindo(false);
    }
  };
  return (
    <>
      <button type="button" className="link" onClick={() => void clicar()} disabled={saindo}>
        {saindo ? 'Saindo…' : 'Sair'}
      </button>
      {erro === null ? null : <Falha mensagem={erro} />}
    </>
  );
}

function Navegacao() {
  const usuario = useUsuario();
  const cestas = useEnderecoCestas();
  const { caminho } = useEndereco();
  const atual = (para: string) =>
    caminho === para || (para !== '/' && caminho.startsWith(`${para}/`)) ? 'page' : undefined;
  if (usuario === null) {
    return (
      <nav aria-label="Principal">
        <ul>
          <li>
            <a href="/login">Entrar</a>
          </li>
        </ul>
      </nav>
    );
  }
  return (
    <nav aria-label="Principal">
      <ul>
        <li>
          <Link para="/dashboard" aria-current={atual('/dashboard')}>
            Painel
          </Link>
        </li>
        <li>
          <Link para="/ciclos" aria-current={atual('/ciclos')}>
            Ciclos
          </Link>
        </li>
        {usuario.acoes.pedir ? (
          <li>
            <Link para="/pedidos" aria-current={atual('/pedidos')}>
              Meus pedidos
            </Link>
          </li>
        ) : null}
        {usuario.acoes.ofertar ? (
          <li>
            <Link para="/entregas" aria-current={atual('/entregas')}>
              Minhas entregas
            </Link>
          </li>
        ) : null}
        <li>
          <Link para="/mercados" aria-current={atual('/mercados')}>
            Mercados
          </Link>
        </li>
        {/* The pickup app is a separate, installable app (/retirada): a plain link opens it. */}
        <li>
          <a href="/retirada">Retirada</a>
        </li>
        {usuario.acoes.listarUsuarios ? (
          <li>
            <Link para="/usuarios" aria-current={atual('/usuarios')}>
              Usuários
            </Link>
          </li>
        ) : null}
        <li>
          <Link para="/avisos" aria-current={atual('/avisos')}>
            Avisos
          </Link>
        </li>
        {cestas === null ? null : (
          <li>
            <a href={`${cestas}/`}>Cestas</a>
          </li>
        )}
        <li className="quem">{usuario.name}</li>
        <li>
          <BotaoSair />
        </li>
      </ul>
    </nav>
  );
}

/** The route of an address, with its parameters. */
function rotaDe(caminho: string): { readonly rota: Rota; readonly p: Parametros } | null {
  for (const rota of ROTAS) {
    const p = casar(rota.padrao, caminho);
    if (p !== null) return { rota, p };
  }
  return null;
}

/**
 * Starts what the page at `caminho` needs before it is drawn: its code and its first query, beside
 * the session check (main.tsx calls it as the client starts; App at each visit). Each is started once.
 */
export function adiantarPagina(caminho: string): void {
  const achada = rotaDe(caminho);
  if (achada === null) return;
  precarregar(achada.rota.pagina(achada.p));
  achada.rota.adiantar?.(achada.p);
}

export function App() {
  const { caminho } = useEndereco();
  let conteudo: ReactNode = <NaoEncontrada />;
  const achada = rotaDe(caminho);
  if (achada !== null) {
    const { rota, p } = achada;
    adiantarPagina(caminho);
    const desenhada = rota.pagina(p);
    const sobDemanda = <PaginaSobDemanda chave={caminho}>{desenhada}</PaginaSobDemanda>;
    conteudo =
      rota.exige === undefined ? (
        sobDemanda
      ) : (
        <Protegida exige={rota.exige === true ? undefined : rota.exige}>{sobDemanda}</Protegida>
      );
  }
  return (
    <>
      <a className="pular" href="#conteudo">
        Pular para o conteúdo
      </a>
      <header className="topo">
        <Link para="/" className="marca">
          Cestaria Mercados
        </Link>
        <Navegacao />
      </header>
      <main id="conteudo">{conteudo}</main>
      <footer className="rodape">
        <p>Cestaria Mercados · mercados da comunidade</p>
      </footer>
    </>
  );
}
