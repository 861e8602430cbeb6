/**
 * The Mercados browser client in a real browser (issue 8, "Show", Mercados): log in through the
 * development provider's page, land on the dashboard, a Consumidor sent to /unauthorized, an
 * Administrador creating a market, editing its prices in bulk, deactivating it and filtering it
 * out, and logging out. Every main page is screenshotted at 360 and 1280 px and checked by axe
 * and for console errors (conferirPagina).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  abrirChromium,
  abrirContexto,
  conferirPagina,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import { criarProduto, criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaPorEmail, perfisDe, sessoesDe, zerarLimiteDeLogin } from '../mercados/apoio.ts';

const pular = semChromium();

describe('cliente web da face Mercados no navegador', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  const admin = { email: emailUnico('adm-nav'), nome: 'Alice Administradora' };
  const consumidor = { email: emailUnico('cons-nav'), nome: 'Caio Consumidor' };
  const produtos: string[] = [];

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: admin.email } });
    navegador = await abrirChromium();
    const sufixo = randomBytes(2).toString('hex');
    for (const [nome, centavos] of [
      ['Abóbora', 400],
      ['Batata-doce', 650],
      ['Cenoura', 500],
    ] as const) {
      const p = await criarProduto(amb.banco, { nome: `${nome} ${sufixo}`, valorCentavos: centavos });
      produtos.push(p.nome);
    }
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  /** The development provider's login form, reached from a button or link of ours. */
  async function preencherProvedor(pagina: Page, pessoa: { email: string; nome: string }): Promise<void> {
    await pagina.waitForURL(/\/interaction\/[^/]+$/);
    await pagina.fill('#email', pessoa.email);
    await pagina.fill('#nome', pessoa.nome);
    await Promise.all([
      pagina.waitForURL(`${amb.urlMercados}/dashboard`),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
  }

  /** Logs in from the landing page's button and waits for the dashboard to show its data. */
  async function entrar(ctx: ContextoDeTeste, pessoa: { email: string; nome: string }): Promise<Page> {
    await zerarLimiteDeLogin(amb.banco);
    const pagina = await ctx.novaPagina();
    await pagina.goto(`${amb.urlMercados}/`);
    await pagina.getByRole('link', { name: 'Entrar', exact: true }).last().click();
    await preencherProvedor(pagina, pessoa);
    await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
    await pagina.getByRole('heading', { name: 'Mercados ativos' }).waitFor();
    return pagina;
  }

  test('página inicial e falha de login, sem sessão', async () => {
    const ctx = await abrirContexto(navegador);
    const pagina = await ctx.novaPagina();
    await pagina.goto(`${amb.urlMercados}/`);
    await pagina.getByRole('heading', { name: 'Mercados da comunidade' }).waitFor();
    const botao = pagina.locator('main').getByRole('link', { name: 'Entrar' });
    assert.equal(await botao.getAttribute('href'), '/login');
    await conferirPagina(pagina, ctx, 'mercados-inicio');

    await pagina.goto(`${amb.urlMercados}/login?error=auth_failed`);
    await pagina.getByRole('alert').filter({ hasText: 'Não foi possível entrar' }).waitFor();
    assert.equal(await pagina.getByRole('link', { name: 'Entrar novamente' }).getAttribute('href'), '/login');
    await conferirPagina(pagina, ctx, 'mercados-login-falhou');
    await ctx.fechar();
  });

  test('Consumidor: entra pelo provedor, chega ao painel, e uma página de Administrador leva a /unauthorized', async () => {
    const ctx = await abrirContexto(navegador);
    const pagina = await entrar(ctx, consumidor);
    assert.equal(new URL(pagina.url()).pathname, '/dashboard');
    await pagina.getByText('Consumidor: faz pedidos e vê os ciclos disponíveis').waitFor();
    assert.equal(
      await pagina.getByRole('link', { name: 'Usuários' }).count(),
      0,
      'sem atalho para o que o perfil não pode',
    );
    await conferirPagina(pagina, ctx, 'mercados-painel-consumidor');

    for (const caminho of ['/usuarios', '/mercados/novo']) {
      await pagina.goto(`${amb.urlMercados}${caminho}`);
      await pagina.waitForURL(`${amb.urlMercados}/unauthorized`);
      await pagina.getByRole('alert').filter({ hasText: 'Seu perfil não permite acessar esta página.' }).waitFor();
    }
    await pagina.getByText('Seus perfis: Consumidor.', { exact: false }).waitFor();
    await conferirPagina(pagina, ctx, 'mercados-nao-autorizado');
    await ctx.fechar();
  });

  test('o painel baixa o código dele e não o das outras páginas; os scripts vêm comprimidos', async () => {
    const ctx = await abrirContexto(navegador);
    await entrar(ctx, consumidor);
    const pagina = await ctx.novaPagina();
    const baixados: Array<{ nome: string; codificacao: string | undefined }> = [];
    // What the browser asks for, in order: the session check ('status') and each GraphQL operation by name.
    const pedidos: string[] = [];
    const sessao = () => pedidos.filter((p) => p === 'status').length;
    pagina.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname === '/auth/status') pedidos.push('status');
      if (pathname === '/graphql')
        pedidos.push(
          /^\s*(query|mutation)\s+(\w+)/.exec(
            String((r.postDataJSON() as { query?: string } | null)?.query ?? ''),
          )?.[2] ?? '?',
        );
    });
    pagina.on('response', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/assets/'))
        baixados.push({ nome: pathname.slice('/assets/'.length), codificacao: r.headers()['content-encoding'] });
    });
    await pagina.goto(`${amb.urlMercados}/dashboard`);
    await pagina.getByRole('heading', { name: 'Mercados ativos' }).waitFor();
    // One session check per load: the guard of the page loaded uses the answer the client already has.
    await pagina.waitForLoadState('networkidle');
    assert.equal(sessao(), 1, `pedidos a /auth/status ao carregar /dashboard: ${pedidos.join(', ')}`);
    // The page's queries (its next steps, its markets) start with its code, before the session
    // check, and the page reads those (not a second time).
    assert.deepEqual(pedidos, ['ProximosPassos', 'Mercados', 'status'], pedidos.join(', '));
    const nomes = baixados.map((b) => b.nome);
    assert.ok(
      nomes.some((n) => /^Painel-[\w-]+\.js$/.test(n)),
      nomes.join(', '),
    );
    const outras = [
      'Inicio',
      'Login',
      'ListaMercados',
      'DetalheMercado',
      'FormularioMercado',
      'EditorPrecos',
      'Usuarios',
      'MeusAvisos',
    ];
    assert.deepEqual(
      nomes.filter((n) => outras.some((o) => n.startsWith(`${o}-`))),
      [],
      'código de outras páginas',
    );
    for (const b of baixados) assert.match(b.codificacao ?? '', /^(br|gzip)$/, `${b.nome}: content-encoding`);

    // Another page's code comes when it is opened, inside the same client.
    await pagina.getByRole('link', { name: 'Avisos', exact: true }).click();
    await pagina.getByRole('heading', { name: 'Avisos por e-mail' }).waitFor();
    assert.ok(
      baixados.some((b) => b.nome.startsWith('MeusAvisos-')),
      baixados.map((b) => b.nome).join(', '),
    );
    // Each later visit asks again (the session may have ended meanwhile).
    assert.equal(sessao(), 2, `pedidos a /auth/status depois de ir a /avisos: ${pedidos.join(', ')}`);
    // Inside the client too, the page's query starts with the visit, not after the check, and only once.
    assert.deepEqual(pedidos.slice(3), ['MeusAvisos', 'status'], pedidos.join(', '));
    await ctx.fechar();
  });

  test('avisos por e-mail: quem tem cadastro na Cestas escolhe no Mercados; a escolha fica', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Vera Avisos' });
    const ctx = await abrirContexto(navegador);
    const pagina = await entrar(ctx, { email: pessoa.email, nome: 'Vera Avisos' });
    await pagina.getByRole('link', { name: 'Avisos', exact: true }).click();
    await pagina.getByRole('heading', { name: 'Avisos por e-mail' }).waitFor();
    const lembrete = pagina.getByLabel('Lembrete da retirada, na véspera');
    assert.equal(await lembrete.isChecked(), true);
    await lembrete.uncheck();
    await pagina.getByRole('button', { name: 'Salvar avisos' }).click();
    await pagina.getByText('Avisos salvos.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-avisos');
    await pagina.reload();
    await pagina.getByRole('heading', { name: 'Avisos por e-mail' }).waitFor();
    assert.equal(await pagina.getByLabel('Lembrete da retirada, na véspera').isChecked(), false);
    assert.equal(await pagina.getByLabel('Abertura do período de pedidos').isChecked(), true);
    const u = await amb.banco
      .selectFrom('usuario')
      .select('avisosDesligados')
      .where('id', '=', pessoa.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(u.avisosDesligados ?? '[]'), ['retirada']);
    await ctx.fechar();
  });

  test('Administrador: cria um mercado, edita os preços em lote, desativa e o filtra; gere perfis; sai', async () => {
    const ctx = await abrirContexto(navegador);
    const pagina = await entrar(ctx, admin);
    await conferirPagina(pagina, ctx, 'mercados-painel-administrador');

    // The list, then the form: errors the browser sees, then one only the server knows.
    await pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Mercados' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/mercados`);
    await pagina.getByRole('heading', { name: 'Mercados', exact: true }).waitFor();
    await pagina.getByText('Nenhum mercado cadastrado.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-lista');
    await pagina.locator('main').getByRole('link', { name: 'Novo mercado' }).click();
    await pagina.getByRole('heading', { name: 'Novo mercado' }).waitFor();
    await pagina.getByLabel('Quem administra').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-novo');

    const nome = `Feira do Teste ${randomBytes(2).toString('hex')}`;
    await pagina.getByLabel('Tipo').selectOption('cesta');
    await pagina.getByRole('button', { name: 'Criar mercado' }).click();
    await pagina.getByText('Informe o nome do mercado').waitFor();
    await pagina.getByText('Obrigatório quando o tipo é cesta').waitFor();
    await pagina.getByLabel('Nome').fill(nome);
    await pagina.getByLabel('Valor máximo da cesta (R$)').fill('150,00');
    await pagina.getByLabel('Taxa administrativa (%)').fill('150');
    await pagina.getByRole('button', { name: 'Criar mercado' }).click();
    await pagina.locator('.erro-campo').filter({ hasText: /100/ }).waitFor();
    assert.equal(await pagina.getByLabel('Taxa administrativa (%)').getAttribute('aria-invalid'), 'true');
    await conferirPagina(pagina, ctx, 'mercados-novo-com-erros');
    await pagina.getByLabel('Taxa administrativa (%)').fill('2,5');
    await pagina.getByRole('button', { name: 'Criar mercado' }).click();
    await pagina.getByRole('heading', { name: nome }).waitFor();
    const id = /\/mercados\/(\d+)$/.exec(pagina.url())?.[1];
    assert.ok(id, `foi para o mercado criado: ${pagina.url()}`);
    const criado = await amb.banco
      .selectFrom('mercado')
      .selectAll()
      .where('id', '=', Number(id))
      .executeTakeFirstOrThrow();
    assert.equal(criado.nome, nome);
    assert.equal(criado.taxaAdministrativaCentesimos, 250);
    assert.equal(criado.valorMaximoCestaCentavos, 15000);
    await pagina.getByText('Este mercado ainda não tem preços.').waitFor();

    // Editing: the Administrador sees every field.
    await pagina.getByRole('link', { name: 'Editar mercado' }).click();
    await pagina.getByRole('heading', { name: `Editar ${nome}` }).waitFor();
    await pagina.getByLabel('Descrição (opcional)').fill('Aos sábados, na praça');
    assert.equal(await pagina.getByLabel('Mercado ativo').isChecked(), true);
    await conferirPagina(pagina, ctx, 'mercados-editar');
    await pagina.getByRole('button', { name: 'Salvar alterações' }).click();
    await pagina.getByText('Aos sábados, na praça').waitFor();

    // Prices in bulk: all three at 10,00, then two of them 10 % up; one bad line stops the save.
    await pagina.getByRole('link', { name: 'Editar preços' }).click();
    await pagina.getByRole('heading', { name: `Preços de ${nome}` }).waitFor();
    await pagina.getByRole('table').waitFor();
    await pagina.getByLabel(/Selecionar os \d+ produtos listados/).check();
    await pagina.getByLabel('O que fazer').selectOption('definir');
    await pagina.getByLabel('Novo preço (R$)', { exact: true }).fill('10,00');
    await pagina.getByRole('button', { name: /Aplicar a \d+ produtos/ }).click();
    await pagina.getByLabel(`Selecionar ${produtos[2] ?? ''}`).uncheck();
    await pagina.getByLabel('O que fazer').selectOption('percentual');
    await pagina.getByLabel('Ajuste (%, negativo para baixar)').fill('10');
    await pagina.getByRole('button', { name: 'Aplicar a 2 produtos' }).click();
    assert.equal(await pagina.getByLabel(`Novo preço de ${produtos[0] ?? ''}`).inputValue(), '11,00');
    assert.equal(await pagina.getByLabel(`Novo preço de ${produtos[2] ?? ''}`).inputValue(), '10,00');

    // On a phone: a refused save says why beside the button, where the person is, and takes the focus.
    await pagina.setViewportSize({ width: 360, height: 740 });
    await pagina.getByLabel(`Novo preço de ${produtos[1] ?? ''}`).fill('11,999');
    await pagina.getByRole('button', { name: 'Salvar preços' }).click();
    await pagina.getByText('Use no máximo 2 casas depois da vírgula (os centavos), como 4,30').waitFor();
    const recusa = pagina.locator('.barra-salvar').getByRole('alert').filter({ hasText: 'Nada foi gravado' });
    await recusa.waitFor();
    assert.equal(await pagina.getByRole('alert').filter({ hasText: 'Nada foi gravado' }).count(), 1);
    assert.equal(await pagina.evaluate(() => document.activeElement?.className), 'erro-do-salvar');
    const caixa = await recusa.boundingBox();
    assert.ok(
      caixa !== null && caixa.y >= 0 && caixa.y + caixa.height <= 740,
      `a recusa está na tela: ${JSON.stringify(caixa)}`,
    );
    await conferirPagina(pagina, ctx, 'mercados-precos-com-erro');
    await pagina.setViewportSize({ width: 1280, height: 800 });
    assert.equal(
      (await amb.banco.selectFrom('precomercado').select('id').where('mercadoId', '=', Number(id)).execute()).length,
      0,
    );

    // Money as people type it: "R$" and the thousands' dots, as the Cestas face reads it.
    await pagina.getByLabel(`Novo preço de ${produtos[1] ?? ''}`).fill('R$ 1.100,00');
    await pagina.getByRole('button', { name: 'Salvar preços' }).click();
    await pagina.getByText('3 preços gravados.').waitFor();
    await pagina.getByRole('table').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-precos');
    const precos = await amb.banco
      .selectFrom('precomercado as pm')
      .innerJoin('produto as p', 'p.id', 'pm.produtoId')
      .select(['p.nome', 'pm.precoCentavos', 'pm.ativo'])
      .where('pm.mercadoId', '=', Number(id))
      .orderBy('p.nome')
      .execute();
    assert.deepEqual(
      precos.map((p) => [p.nome, p.precoCentavos, p.ativo]),
      [
        [produtos[0], 1100, true],
        [produtos[1], 110000, true],
        [produtos[2], 1000, true],
      ],
    );

    // Back at the market: its prices, then deactivation (a second click confirms).
    await pagina.getByRole('link', { name: 'Voltar ao mercado' }).click();
    await pagina.getByRole('cell', { name: 'R$ 11,00' }).first().waitFor();
    await pagina.getByRole('cell', { name: 'R$ 1.100,00' }).waitFor();
    await conferirPagina(pagina, ctx, 'mercados-detalhe');
    await pagina.getByRole('button', { name: 'Desativar mercado' }).click();
    await pagina.getByRole('button', { name: 'Confirmar desativação' }).click();
    await pagina.getByText('Mercado desativado.').waitFor();
    await pagina.locator('.ficha').getByText('Inativo').waitFor();
    assert.equal(
      (await amb.banco.selectFrom('mercado').select('ativo').where('id', '=', Number(id)).executeTakeFirstOrThrow())
        .ativo,
      false,
    );

    // The ativo filter: gone from the active ones, present among the inactive ones.
    await pagina.getByRole('link', { name: '← Todos os mercados' }).click();
    await pagina.getByRole('link', { name: nome }).waitFor();
    await pagina.getByLabel('Situação').selectOption('ativos');
    await pagina.waitForURL(`${amb.urlMercados}/mercados?situacao=ativos`);
    await pagina.getByText('Nenhum mercado ativo.').waitFor();
    assert.equal(await pagina.getByRole('link', { name: nome }).count(), 0);
    await pagina.getByLabel('Situação').selectOption('inativos');
    await pagina.getByRole('link', { name: nome }).waitFor();

    // Profiles: the Consumidor becomes AdminMercado too.
    await pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Usuários' }).click();
    await pagina.getByRole('heading', { name: 'Usuários e perfis' }).waitFor();
    const cartao = pagina.getByRole('group', { name: new RegExp(consumidor.nome) });
    await cartao.getByLabel('AdminMercado').check();
    await conferirPagina(pagina, ctx, 'mercados-usuarios');
    await cartao.getByRole('button', { name: `Salvar perfis de ${consumidor.nome}` }).click();
    await cartao.getByText(`Perfis de ${consumidor.nome} salvos.`).waitFor();
    const conta = await contaPorEmail(amb.banco, consumidor.email);
    assert.ok(conta);
    assert.deepEqual(await perfisDe(amb.banco, conta.id), ['AdminMercado', 'Consumidor']);

    // Logging out in one tab: the other tab's next protected page goes to /login (the client's guard).
    const outra = await ctx.novaPagina();
    await outra.goto(`${amb.urlMercados}/dashboard`);
    await outra.getByRole('heading', { name: `Olá, ${admin.nome}!` }).waitFor();
    await pagina.getByRole('button', { name: 'Sair' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/`);
    await pagina.locator('main').getByRole('link', { name: 'Entrar' }).waitFor();
    assert.equal(
      await sessoesDe(amb.banco, (await contaPorEmail(amb.banco, admin.email))?.id ?? 0),
      0,
      'a sessão acabou no servidor',
    );

    // The development provider still remembers this browser, but the logout's mark makes the next
    // login ask it for the person again (prompt=login): the way ends at its login page.
    const loginDaOutra = outra.waitForRequest(`${amb.urlMercados}/login`);
    await outra.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Mercados' }).click();
    await loginDaOutra;
    await outra.waitForURL(/\/interaction\/[^/]+$/);

    // Loading a protected page afresh: the server sends it to /login.
    await Promise.all([
      pagina.waitForRequest(`${amb.urlMercados}/login`),
      pagina.goto(`${amb.urlMercados}/mercados/${id}/precos`),
    ]);
    assert.match(pagina.url(), /\/interaction\/[^/]+$/);
    await ctx.fechar();
  });
});
