import { CAMPOS_DATA } from '../domain/ciclos/calendario.ts';
import type { Banco } from '../db/banco.ts';
import { emTransacao } from '../db/banco.ts';
import { gravarPerfis, type Perfil } from '../domain/perfis.ts';
import { somarDias } from '../domain/tempo.ts';
import { chaveDeNome } from '../domain/textos.ts';
import type { Ator } from '../domain/acesso.ts';
import { linhasOfertadas } from '../domain/alocacao.ts';
import { pausar, salvarAssinatura } from '../domain/assinaturas/escrita.ts';
import { salvarCiclo } from '../domain/ciclos/gravacao.ts';
import { salvarComposicao } from '../domain/composicao.ts';
import { fecharCiclo } from '../domain/financeiro.ts';
import { salvarOferta } from '../domain/ofertas.ts';
import { fazerPedido } from '../domain/pedidos/fazer.ts';
import { disponibilidade } from '../domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../domain/pedidos/finalizar.ts';
import { gravarVoluntarios } from '../domain/retirada/voluntarios.ts';
import type { LinhaPedida } from '../domain/pedidos/regras.ts';
import type { PessoaDemo } from '../idp/provedor.ts';

interface PessoaDemoCompleta extends PessoaDemo {
  readonly perfil: readonly Perfil[];
  readonly celular: string;
  readonly nomeoficial?: string;
}

/** The demo person with a long e-mail address (and name). */
export const EMAIL_LONGO_DEMO = 'maria.aparecida.nascimento.albuquerque@cooperativa-exemplo.org.br';

/** The demo product with a long name, offered by Elias and sold as an extra. */
export const PRODUTO_LONGO_DEMO = 'Farinha de mandioca torrada artesanal do Quilombo Ivaporunduva (Vale do Ribeira)';

/** Demo people: one per perfil, plus a second supplier and consumer, and a consumer with a long name. */
export const PESSOAS_DEMO: readonly PessoaDemoCompleta[] = [
  {
    email: 'ana@exemplo.org',
    nome: 'Ana Coordenadora',
    papel: 'master',
    perfil: ['master'],
    celular: '(19) 99100-0001',
  },
  {
    email: 'bruno@exemplo.org',
    nome: 'Bruno Administrador',
    papel: 'admin',
    perfil: ['admin'],
    celular: '(19) 99100-0002',
  },
  {
    email: 'clara@exemplo.org',
    nome: 'Clara Conselheira',
    papel: 'info',
    perfil: ['info'],
    celular: '(19) 99100-0003',
  },
  {
    email: 'dora@exemplo.org',
    nome: 'Dora Agricultora',
    papel: 'fornecedor',
    perfil: ['fornecedor'],
    celular: '(19) 99100-0004',
    nomeoficial: 'Sítio Boa Terra',
  },
  {
    email: 'elias@exemplo.org',
    nome: 'Elias Produtor',
    papel: 'fornecedor',
    perfil: ['fornecedor', 'consumidor'],
    celular: '(19) 99100-0005',
    nomeoficial: 'Chácara Água Limpa',
  },
  {
    email: 'fabi@exemplo.org',
    nome: 'Fabiana Consumidora',
    papel: 'consumidor',
    perfil: ['consumidor'],
    celular: '(19) 99100-0006',
  },
  {
    email: 'gabriel@exemplo.org',
    nome: 'Gabriel Consumidor',
    papel: 'consumidor',
    perfil: ['consumidor'],
    celular: '(19) 99100-0007',
  },
  // A long name and a long e-mail, as real people have: every page must wrap them on a phone.
  {
    email: EMAIL_LONGO_DEMO,
    nome: 'Maria Aparecida dos Santos Nascimento Albuquerque de Oliveira',
    papel: 'consumidor',
    perfil: ['consumidor'],
    celular: '(19) 99100-0008',
  },
];

const CATEGORIAS = ['Hortaliças', 'Frutas', 'Raízes e tubérculos', 'Ovos e laticínios', 'Grãos e farinhas'] as const;

const PRODUTOS: ReadonlyArray<readonly [string, string, number, (typeof CATEGORIAS)[number], number | null]> = [
  ['Alface crespa', 'maço', 350, 'Hortaliças', 300],
  ['Couve manteiga', 'maço', 400, 'Hortaliças', 250],
  ['Rúcula', 'maço', 450, 'Hortaliças', 200],
  ['Tomate', 'kg', 900, 'Hortaliças', 1000],
  ['Banana prata', 'dúzia', 800, 'Frutas', 1400],
  ['Laranja pera', 'kg', 500, 'Frutas', 1000],
  ['Mandioca', 'kg', 600, 'Raízes e tubérculos', 1000],
  ['Batata-doce', 'kg', 700, 'Raízes e tubérculos', 1000],
  ['Ovos caipiras', 'dúzia', 1800, 'Ovos e laticínios', 700],
  ['Queijo minas frescal', 'unidade', 2500, 'Ovos e laticínios', 500],
  ['Leite cru', 'litro', 600, 'Ovos e laticínios', 1000],
  ['Feijão carioca', 'kg', 1100, 'Grãos e farinhas', 1000],
  ['Fubá de milho crioulo', 'kg', 900, 'Grãos e farinhas', 1000],
  [PRODUTO_LONGO_DEMO, 'kg', 1400, 'Grãos e farinhas', 1000],
];

const PONTOS = [
  {
    nome: 'Sede da Associação',
    endereco: 'Rua das Palmeiras, 120',
    cidade: 'Botucatu',
    referencia: 'Ao lado da praça',
    responsavel: 'Ana Coordenadora',
    telefone: '(14) 3800-0001',
  },
  {
    nome: 'Escola Estadual Centro',
    endereco: 'Av. Brasil, 455',
    cidade: 'Botucatu',
    referencia: 'Portão lateral',
    responsavel: 'Bruno Administrador',
    telefone: '(14) 3800-0002',
  },
  {
    nome: 'Feira do Produtor',
    endereco: 'Praça da Matriz, s/n',
    cidade: 'São Manuel',
    referencia: 'Barraca 7',
    responsavel: 'Dora Agricultora',
    telefone: '(14) 3800-0003',
  },
] as const;

/** The hours of each demo point (in PONTOS order) in every demo cycle. */
const HORARIOS_DEMO = [
  { de: '08:00', ate: '12:00', ultimoDia: false },
  { de: '14:00', ate: '18:00', ultimoDia: false },
  { de: '07:00', ate: '11:00', ultimoDia: true },
] as const;

const CESTAS = [
  { nome: 'Cesta Pequena', descricao: 'Para 1 ou 2 pessoas', valorReferenciaCentavos: 5000, pesoAproximado: 4000 },
  { nome: 'Cesta Média', descricao: 'Para 3 ou 4 pessoas', valorReferenciaCentavos: 8000, pesoAproximado: 7000 },
  { nome: 'Cesta Grande', descricao: 'Para famílias grandes', valorReferenciaCentavos: 11000, pesoAproximado: 10000 },
] as const;

/** Cycle dates placing each demo cycle in a different phase relative to today. */
function datasRelativas(hoje: string, deslocamento: number) {
  const d = (n: number) => somarDias(hoje, deslocamento + n);
  return {
    dataOfertaInicio: d(0),
    dataOfertaFim: d(3),
    dataPedidoInicio: d(5),
    dataPedidoFim: d(8),
    dataRetiradaInicio: d(10),
    dataRetiradaFim: d(11),
  };
}

const CICLOS_DEMO: ReadonlyArray<readonly [string, number]> = [
  ['Ciclo encerrado', -20],
  ['Ciclo em retirada', -10],
  ['Ciclo com pedidos abertos', -6],
  ['Ciclo em composição', -4],
  ['Ciclo com ofertas abertas', -1],
  ['Próximo ciclo', 14],
];

type Ids = Map<string, number>;

async function idsPorNome(banco: Banco, tabela: 'produto' | 'ciclo' | 'usuario' | 'pontoentrega'): Promise<Ids> {
  const linhas =
    tabela === 'usuario'
      ? await banco.selectFrom('usuario').select(['id', 'email as nome']).execute()
      : await banco.selectFrom(tabela).select(['id', 'nome']).execute();
  return new Map(linhas.map((l) => [l.nome, l.id]));
}

/**
 * The workflow of the demo cycles, through the domain's own rules: offers in every cycle from the
 * offer window on, compositions and extras from the composition phase on, orders from the order
 * phase on, and the ended cycle closed with its movements.
 */
async function carregarFluxoDemo(banco: Banco, agora: Date, hoje: string): Promise<void> {
  const produtos = await idsPorNome(banco, 'produto');
  const ciclos = await idsPorNome(banco, 'ciclo');
  const pessoas = await idsPorNome(banco, 'usuario');
  const pontos = await idsPorNome(banco, 'pontoentrega');
  const ana = pessoas.get('ana@exemplo.org') ?? 0;
  const ator: Ator = {
    email: 'ana@exemplo.org',
    nome: 'Ana Coordenadora',
    usuarioid: ana,
    perfil: ['master'],
    ativo: true,
  };
  const tempo = { agora, hoje };
  const taxa = { percentualCentesimos: 0, fixaCentavos: 0 };
  const p = (nome: string) => produtos.get(nome) ?? 0;
  // [product, quantity in thousandths of its unit, price in centavos per unit]
  const ofertaDora = [
    ['Alface crespa', 60_000, 300],
    ['Couve manteiga', 40_000, 350],
    ['Tomate', 50_000, 800],
    ['Ovos caipiras', 30_000, 1600],
  ] as const;
  const ofertaElias = [
    ['Mandioca', 40_000, 500],
    ['Banana prata', 30_000, 700],
    ['Tomate', 30_000, 750],
    ['Queijo minas frescal', 15_000, 2200],
    [PRODUTO_LONGO_DEMO, 30_000, 1300],
  ] as const;
  for (const [nome, fase] of CICLOS_DEMO.map(([n, d]) => [n, d] as const)) {
    const cicloid = ciclos.get(nome) ?? 0;
    if (fase >= 14) continue;
    const finalizar = fase < -1;
    for (const [email, linhas] of [
      ['dora@exemplo.org', ofertaDora],
      ['elias@exemplo.org', ofertaElias],
    ] as const) {
      const produtosDaOferta = linhas.map(([produto, quantidadeMilesimos, valorCentavos], i) => ({
        produtoid: p(produto),
        quantidadeMilesimos,
        valorCentavos,
        campo: `produtos.${i}`,
      }));
      await salvarOferta(
        banco,
        ator,
        { cicloid, usuarioid: pessoas.get(email) ?? null, linhas: produtosDaOferta },
        { ...tempo, finalizar },
      );
    }
    if (!finalizar) continue;
    const linhas = await linhasOfertadas(banco, cicloid);
    const linha = (produto: string, fornecedor: string) =>
      linhas.find((l) => l.produto === produto && l.fornecedor.startsWith(fornecedor))?.ofertaProdutoId;
    const cestasDoCiclo = await banco
      .selectFrom('ciclocesta')
      .innerJoin('cesta', 'cesta.id', 'ciclocesta.cestaId')
      .select(['ciclocesta.id', 'cesta.nome'])
      .where('cicloid', '=', cicloid)
      .orderBy('ciclocesta.id')
      .execute();
    // [product, supplier, thousandths of the unit chosen, that unit]
    const composicoes: Record<string, { cestas: number; itens: Array<[string, string, number, string]> }> = {
      'Cesta Pequena': {
        cestas: 20,
        itens: [
          ['Alface crespa', 'Dora', 1000, 'maço'],
          ['Tomate', 'Dora', 1000, 'kg'],
          ['Mandioca', 'Elias', 1000, 'kg'],
          ['Ovos caipiras', 'Dora', 6000, 'unidade'],
        ],
      },
      'Cesta Média': {
        cestas: 10,
        itens: [
          ['Alface crespa', 'Dora', 2000, 'maço'],
          ['Couve manteiga', 'Dora', 1000, 'maço'],
          ['Tomate', 'Elias', 1_500_000, 'g'],
          ['Banana prata', 'Elias', 1000, 'dúzia'],
          ['Ovos caipiras', 'Dora', 1000, 'dúzia'],
        ],
      },
    };
    for (const cc of cestasDoCiclo) {
      const c = composicoes[cc.nome];
      if (c === undefined) continue;
      const itens = c.itens.map(([produto, fornecedor, quantidadeMilesimos, unidade], i) => ({
        ofertaProdutoId: linha(produto, fornecedor) ?? 0,
        quantidadeMilesimos,
        unidade,
        campo: `produtos.${i}`,
      }));
      await salvarComposicao(banco, ator, { cicloCestaId: cc.id, quantidadeCestas: c.cestas, itens }, agora);
    }
    if (fase > -6) continue;
    const ciclo = await banco
      .selectFrom('ciclo')
      .select(['nome', ...CAMPOS_DATA])
      .where('id', '=', cicloid)
      .executeTakeFirstOrThrow();
    const cicloProdutos = [
      { id: null, produtoId: p('Tomate'), quantidadeMilesimos: 20_000, valorCentavos: 1000, campo: 'cicloProdutos.0' },
      {
        id: null,
        produtoId: p('Queijo minas frescal'),
        quantidadeMilesimos: 10_000,
        valorCentavos: 2800,
        campo: 'cicloProdutos.1',
      },
      {
        id: null,
        produtoId: p(PRODUTO_LONGO_DEMO),
        quantidadeMilesimos: 10_000,
        valorCentavos: 1600,
        campo: 'cicloProdutos.2',
      },
    ];
    await salvarCiclo(
      banco,
      ator,
      cicloid,
      { dados: { ...ciclo, ativo: true }, cicloEntregas: null, cicloPontos: null, cicloCestas: null, cicloProdutos },
      agora,
      hoje,
    );
    const disp = await disponibilidade(banco, cicloid, hoje);
    const cesta = (nome: string) => disp.cestas.find((c) => c.nome === nome)?.cicloCestaId;
    const extra = (nome: string) => disp.extras.find((e) => e.nome === nome)?.cicloProdutoId;
    const daCesta = (nome: string, cestas: number) => ({
      cicloCestaId: cesta(nome) ?? 0,
      cicloProdutoId: null,
      quantidadeMilesimos: cestas * 1000,
    });
    const doExtra = (nome: string, milesimos: number) => ({
      cicloCestaId: null,
      cicloProdutoId: extra(nome) ?? 0,
      quantidadeMilesimos: milesimos,
    });
    const pedidos: Array<[string, string, Array<Omit<LinhaPedida, 'campo'>>, boolean]> = [
      [
        'fabi@exemplo.org',
        'Sede da Associação',
        [daCesta('Cesta Média', 1), doExtra('Queijo minas frescal', 1000)],
        true,
      ],
      [
        'gabriel@exemplo.org',
        'Escola Estadual Centro',
        [daCesta('Cesta Pequena', 2), doExtra('Tomate', 1500)],
        fase <= -10,
      ],
      ['elias@exemplo.org', 'Feira do Produtor', [daCesta('Cesta Pequena', 1)], true],
      [EMAIL_LONGO_DEMO, 'Sede da Associação', [daCesta('Cesta Pequena', 2), doExtra(PRODUTO_LONGO_DEMO, 2500)], true],
    ];
    for (const [email, ponto, produtosDoPedido, confirmar] of pedidos) {
      const linhasDoPedido = produtosDoPedido.map((l, i) => ({ ...l, campo: `produtos.${i}` }));
      const { pedido } = await fazerPedido(
        banco,
        ator,
        {
          cicloid,
          usuarioid: pessoas.get(email) ?? null,
          pontoEntregaId: pontos.get(ponto) ?? 0,
          linhas: linhasDoPedido,
        },
        { ...tempo, taxa, tz: 'America/Sao_Paulo' },
      );
      if (confirmar) await finalizarPedido(banco, ator, pedido.pedidoId, { ...tempo, taxa, tz: 'America/Sao_Paulo' });
    }
    if (fase <= -20) await fecharCiclo(banco, ator, cicloid, { ...tempo, taxa });
  }
  await carregarAssinaturasDemo(banco, ator, { ...tempo, taxa, tz: 'America/Sao_Paulo' }, pessoas, pontos);
  // Gabriel runs the pickup at the Sede in the cycle in pickup (docs/retirada.md): a volunteer's
  // narrow right, beside his own orders.
  await gravarVoluntarios(
    banco,
    ciclos.get('Ciclo em retirada') ?? 0,
    pontos.get('Sede da Associação') ?? 0,
    [pessoas.get('gabriel@exemplo.org') ?? 0],
    agora.toISOString(),
  );
}

/**
 * Subscribers of the demo's basket types, so a newcomer sees the open cycle filled by
 * subscriptions: Fabiana every cycle, Gabriel every other cycle (the open one is a "sim"), and
 * Elias paused over the open cycle. The open order window serves them at once (salvarAssinatura).
 */
async function carregarAssinaturasDemo(
  banco: Banco,
  ator: Ator,
  opcoes: { agora: Date; hoje: string; taxa: { percentualCentesimos: number; fixaCentavos: number }; tz: string },
  pessoas: Ids,
  pontos: Ids,
): Promise<void> {
  const cestas = new Map((await banco.selectFrom('cesta').select(['id', 'nome']).execute()).map((c) => [c.nome, c.id]));
  const temporada = { inicio: somarDias(opcoes.hoje, -30), fim: somarDias(opcoes.hoje, 120) };
  const assinar = (
    email: string,
    cesta: string,
    ponto: string,
    frequencia: 'cada_ciclo' | 'ciclo_sim_ciclo_nao',
    quantidade: number,
    ativa: boolean,
    id: number | null = null,
  ) =>
    salvarAssinatura(
      banco,
      ator,
      {
        id,
        usuarioid: pessoas.get(email) ?? null,
        cestaId: cestas.get(cesta) ?? 0,
        quantidade,
        pontoEntregaId: pontos.get(ponto) ?? 0,
        frequencia,
        ...temporada,
        mercadoId: null,
        ativa,
      },
      opcoes,
    );
  await assinar('fabi@exemplo.org', 'Cesta Pequena', 'Sede da Associação', 'cada_ciclo', 1, true);
  await assinar('gabriel@exemplo.org', 'Cesta Média', 'Escola Estadual Centro', 'ciclo_sim_ciclo_nao', 1, true);
  // Paused before it is active, so the open cycle finds the pause when it serves the subscription.
  const elias = await assinar('elias@exemplo.org', 'Cesta Pequena', 'Feira do Produtor', 'cada_ciclo', 1, false);
  await pausar(banco, ator, elias.id, { inicio: somarDias(opcoes.hoje, -3), fim: somarDias(opcoes.hoje, 3) }, opcoes);
  await assinar('elias@exemplo.org', 'Cesta Pequena', 'Feira do Produtor', 'cada_ciclo', 1, true, elias.id);
}

/** True when the database has no users yet (a fresh install). */
export async function bancoVazio(banco: Banco): Promise<boolean> {
  const r = await banco.selectFrom('usuario').select('id').limit(1).executeTakeFirst();
  return r === undefined;
}

/** Loads the demo community into an empty database, in one transaction. */
export async function carregarDemo(banco: Banco, agora: Date, hoje: string): Promise<void> {
  const iso = agora.toISOString();
  const datas = { createdAt: iso, updatedAt: iso };
  await emTransacao(banco, async (trx) => {
    for (const p of PESSOAS_DEMO) {
      await trx
        .insertInto('usuario')
        .values({
          nome: p.nome,
          nomeChave: chaveDeNome(p.nome),
          email: p.email,
          emailChave: p.email,
          perfil: gravarPerfis(p.perfil),
          celular: p.celular,
          nomeoficial: p.nomeoficial ?? null,
          cientepolitica: true,
          ...datas,
        })
        .execute();
    }
    const categorias = new Map<string, number>();
    for (const nome of CATEGORIAS) {
      const r = await trx
        .insertInto('categoria')
        .values({ nome, nomeChave: chaveDeNome(nome), ...datas })
        .returning('id')
        .executeTakeFirstOrThrow();
      categorias.set(nome, r.id);
    }
    for (const [nome, unidade, valor, categoria, peso] of PRODUTOS) {
      await trx
        .insertInto('produto')
        .values({
          nome,
          nomeChave: chaveDeNome(nome),
          unidade,
          valorReferenciaCentavos: valor,
          pesoGramas: peso,
          categoriaid: categorias.get(categoria) ?? null,
          descritivo: null,
          ...datas,
        })
        .execute();
    }
    const pontos: number[] = [];
    for (const p of PONTOS)
      pontos.push(
        (
          await trx
            .insertInto('pontoentrega')
            .values({ ...p, nomeChave: chaveDeNome(p.nome), ...datas })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const cestas: number[] = [];
    for (const c of CESTAS) {
      const r = await trx
        .insertInto('cesta')
        .values({ ...c, nomeChave: chaveDeNome(c.nome), ...datas })
        .returning('id')
        .executeTakeFirstOrThrow();
      cestas.push(r.id);
    }
    for (const [nome, deslocamento] of CICLOS_DEMO) {
      const ciclo = await trx
        .insertInto('ciclo')
        .values({ nome, nomeChave: chaveDeNome(nome), ...datasRelativas(hoje, deslocamento), ...datas })
        .returning('id')
        .executeTakeFirstOrThrow();
      const entrega = datasRelativas(hoje, deslocamento).dataRetiradaInicio;
      await trx
        .insertInto('cicloentrega')
        .values({
          cicloid: ciclo.id,
          dataEntrega: somarDias(entrega, -1),
          observacao: 'Entrega dos fornecedores na sede',
          ...datas,
        })
        .execute();
      // Each point has its own day and hours in the cycle (the fair on the last pickup day).
      const fim = datasRelativas(hoje, deslocamento).dataRetiradaFim;
      for (const [i, pontoEntregaId] of pontos.entries()) {
        const [dataRetirada, horaInicio, horaFim] =
          HORARIOS_DEMO[i] === undefined
            ? [entrega, null, null]
            : [HORARIOS_DEMO[i].ultimoDia ? fim : entrega, HORARIOS_DEMO[i].de, HORARIOS_DEMO[i].ate];
        await trx
          .insertInto('ciclopontoentrega')
          .values({ cicloid: ciclo.id, pontoEntregaId, dataRetirada, horaInicio, horaFim, ...datas })
          .execute();
      }
      for (const [i, cestaId] of cestas.entries()) {
        await trx
          .insertInto('ciclocesta')
          .values({ cicloid: ciclo.id, cestaId, quantidadeCestas: [30, 20, 10][i] ?? 10, ...datas })
          .execute();
      }
    }
  });
  await carregarFluxoDemo(banco, agora, hoje);
}
