/**
 * The volunteers of a pickup point (issue 38): named on the cycle's points list by e-mail, in the
 * form and in the JSON, each an active person; an unknown one is refused by its field, in
 * Portuguese, and nothing changes; a save replaces the set of that (cycle, point), a row that does
 * not send them keeps them, and a point that leaves the cycle takes its volunteers. The
 * coordination's view of the pickup names them point by point too, also once the cycle is closed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lerEmailsDosVoluntarios } from '../../src/domain/retirada/voluntarios.ts';
import { DATAS_PADRAO, criarCiclo, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

interface Voluntario {
  usuarioid: number;
  nome: string;
  email: string;
}

interface PontoDoCiclo {
  id: number;
  pontoEntregaId: number;
  voluntarios: Voluntario[];
}

describe('voluntários da retirada: no formulário do ciclo e na visão da retirada', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let info: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    admin = await entrarComo(amb, ['admin']);
    info = await entrarComo(amb, ['info']);
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  /** A cycle with two points, and three people of the community. */
  async function cenario() {
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const sede = (await criarPonto(amb.banco, `Sede ${c.id}`)).id;
    const feira = (await criarPonto(amb.banco, `Feira ${c.id}`)).id;
    const ana = await criarUsuario(amb.banco, { nome: `Ana ${c.id}`, email: `ana.${c.id}@teste.org` });
    const beto = await criarUsuario(amb.banco, { nome: `Beto ${c.id}`, email: `beto.${c.id}@teste.org` });
    const cida = await criarUsuario(amb.banco, { nome: `Cida ${c.id}`, email: `cida.${c.id}@teste.org` });
    return { cicloid: c.id, sede, feira, ana, beto, cida };
  }

  const salvar = (cicloid: number, cicloPontos: unknown[]) =>
    admin.nav.postJson(url(`/ciclo/${cicloid}`), { nome: `Ciclo ${cicloid}`, ...DATAS_PADRAO, cicloPontos });

  async function pontos(cicloid: number): Promise<PontoDoCiclo[]> {
    const r = await admin.nav.getJson(url(`/ciclo/${cicloid}`));
    assert.equal(r.status, 200, r.texto);
    return r.json<Envelope<{ registro: { cicloPontos: PontoDoCiclo[] } }>>().data.registro.cicloPontos;
  }

  async function gravados(cicloid: number) {
    return (
      await amb.banco
        .selectFrom('voluntario')
        .select(['pontoEntregaId', 'usuarioid', 'createdAt'])
        .where('cicloid', '=', cicloid)
        .orderBy('pontoEntregaId')
        .orderBy('usuarioid')
        .execute()
    ).map((v) => ({ ...v, createdAt: String(v.createdAt) }));
  }

  test('a leitura dos e-mails: vírgulas, ponto e vírgula, linhas e espaços; repetidos uma vez; lista do JSON', () => {
    assert.deepEqual(lerEmailsDosVoluntarios(' a@x.org, b@x.org;\nc@x.org  A@X.org \n'), {
      emails: ['a@x.org', 'b@x.org', 'c@x.org'],
    });
    assert.deepEqual(lerEmailsDosVoluntarios(''), { emails: [] });
    assert.deepEqual(lerEmailsDosVoluntarios(null), { emails: [] });
    assert.deepEqual(lerEmailsDosVoluntarios(['a@x.org', { usuarioid: 3, nome: 'B', email: 'b@x.org' }]), {
      emails: ['a@x.org', 'b@x.org'],
    });
    assert.deepEqual(lerEmailsDosVoluntarios('a@x.org, ana, b@'), {
      erro: 'E-mails inválidos: ana, b@. Separe os e-mails por vírgula ou um por linha',
    });
    assert.deepEqual(lerEmailsDosVoluntarios([3]), {
      erro: 'Informe os e-mails dos voluntários, separados por vírgula ou um por linha',
    });
    const muitos = Array.from({ length: 51 }, (_, i) => `p${i}@x.org`).join(',');
    assert.deepEqual(lerEmailsDosVoluntarios(muitos), { erro: 'No máximo 50 voluntários por ponto (há 51)' });
  });

  test('o JSON nomeia, mostra por nome, troca o conjunto, mantém quem não veio e tira quem sai', async () => {
    const { cicloid, sede, feira, ana, beto, cida } = await cenario();
    const r = await salvar(cicloid, [
      { pontoEntregaId: sede, voluntarios: `${cida.email}\n${ana.email.toUpperCase()}, ${ana.email}` },
      { pontoEntregaId: feira, voluntarios: [beto.email] },
    ]);
    assert.equal(r.status, 200, r.texto);
    // The answer and the cycle's JSON name them, each point's by name.
    const resposta = r.json<Envelope<{ cicloPontos: PontoDoCiclo[] }>>().data.cicloPontos;
    // The points in the cycle's order (unset days: by name), each one's volunteers by name.
    const esperado = [
      [feira, [{ usuarioid: beto.id, nome: beto.nome, email: beto.email }]],
      [sede, [ana, cida].map((p) => ({ usuarioid: p.id, nome: p.nome, email: p.email }))],
    ];
    assert.deepEqual(
      resposta.map((p) => [p.pontoEntregaId, p.voluntarios]),
      esperado,
    );
    const lidos = await pontos(cicloid);
    assert.deepEqual(
      lidos.map((p) => [p.pontoEntregaId, p.voluntarios]),
      esperado,
    );
    const antes = await gravados(cicloid);
    assert.equal(antes.length, 3);

    // What the JSON gives can be sent back as it is; a row without `voluntarios` keeps them.
    const deVolta = await salvar(cicloid, [
      { pontoEntregaId: sede, voluntarios: lidos[1]?.voluntarios },
      { pontoEntregaId: feira },
    ]);
    assert.equal(deVolta.status, 200, deVolta.texto);
    assert.deepEqual(await gravados(cicloid), antes, 'nada mudou, nem quando foram nomeados');

    // A new set replaces the old one: who stays keeps the row, who leaves goes, who comes is new.
    const troca = await salvar(cicloid, [
      { pontoEntregaId: sede, voluntarios: `${cida.email}, ${beto.email}` },
      { pontoEntregaId: feira, voluntarios: '' },
    ]);
    assert.equal(troca.status, 200, troca.texto);
    const depois = await gravados(cicloid);
    assert.deepEqual(
      depois.map((v) => [v.pontoEntregaId, v.usuarioid]),
      [
        [sede, beto.id],
        [sede, cida.id],
      ].sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0)),
    );
    assert.equal(
      depois.find((v) => v.usuarioid === cida.id)?.createdAt,
      antes.find((v) => v.usuarioid === cida.id && v.pontoEntregaId === sede)?.createdAt,
    );

    // The point that leaves the cycle takes its volunteers.
    const sai = await salvar(cicloid, [{ pontoEntregaId: feira, voluntarios: [ana.email] }]);
    assert.equal(sai.status, 200, sai.texto);
    assert.deepEqual(
      (await gravados(cicloid)).map((v) => [v.pontoEntregaId, v.usuarioid]),
      [[feira, ana.id]],
    );
    // The audit trail keeps the cycle before and after, volunteers included.
    const auditoria = await amb.banco
      .selectFrom('auditoria')
      .select('depois')
      .where('entidade', '=', 'ciclo')
      .where('entidadeId', '=', String(cicloid))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.match(String(auditoria.depois), new RegExp(`"voluntarios":\\[\\{"usuarioid":${ana.id},`));
  });

  test('e-mail desconhecido, de pessoa inativa ou inválido: 400 pelo campo, em português, e nada muda', async () => {
    const { cicloid, sede, feira, ana, beto } = await cenario();
    assert.equal((await salvar(cicloid, [{ pontoEntregaId: sede, voluntarios: ana.email }])).status, 200);
    const antes = await gravados(cicloid);
    const inativa = await criarUsuario(amb.banco, { nome: 'Inativa', ativo: false });
    const r = await salvar(cicloid, [
      { pontoEntregaId: sede, voluntarios: `${beto.email}, ninguem.${cicloid}@teste.org` },
      { pontoEntregaId: feira, voluntarios: [inativa.email, `outra.${cicloid}@teste.org`] },
    ]);
    assert.equal(r.status, 400, r.texto);
    assert.deepEqual(r.json<Envelope>().details, {
      'cicloPontos.0.voluntarios': `Não há pessoa ativa com o e-mail ninguem.${cicloid}@teste.org: confira o e-mail ou cadastre a pessoa antes`,
      'cicloPontos.1.voluntarios': `Não há pessoas ativas com os e-mails ${inativa.email}, outra.${cicloid}@teste.org: confira os e-mails ou cadastre as pessoas antes`,
    });
    const malEscrito = await salvar(cicloid, [{ pontoEntregaId: sede, voluntarios: 'beto arroba teste' }]);
    assert.equal(malEscrito.status, 400);
    assert.deepEqual(malEscrito.json<Envelope>().details, {
      'cicloPontos.0.voluntarios':
        'E-mails inválidos: beto, arroba, teste. Separe os e-mails por vírgula ou um por linha',
    });
    assert.deepEqual(await gravados(cicloid), antes, 'nada mudou');
    assert.equal(
      (await amb.banco.selectFrom('ciclopontoentrega').select('id').where('cicloid', '=', cicloid).execute()).length,
      1,
      'nem a lista de pontos',
    );
  });

  test('o formulário: coluna por ponto, erro ao lado do campo com o texto digitado, e o conjunto salvo de volta', async () => {
    const { cicloid, sede, ana, cida } = await cenario();
    const form = await admin.nav.get(url(`/ciclo/${cicloid}`));
    assert.match(form.texto, /<th scope="col">Voluntários da retirada<\/th>/);
    const enviar = (voluntarios: string) =>
      admin.nav.post(
        url(`/ciclo/${cicloid}`),
        {
          form: {
            _csrf: tokenCsrf(form.texto),
            _listas: 'cicloEntregas,cicloPontos,cicloCestas,cicloProdutos',
            nome: `Ciclo ${cicloid}`,
            ...DATAS_PADRAO,
            ativo: 'true',
            'cicloPontos[0][pontoEntregaId]': String(sede),
            'cicloPontos[0][dataRetirada]': '',
            'cicloPontos[0][horaInicio]': '',
            'cicloPontos[0][horaFim]': '',
            'cicloPontos[0][voluntarios]': voluntarios,
            'cicloPontos[1][pontoEntregaId]': '',
            'cicloPontos[1][dataRetirada]': '',
            'cicloPontos[1][horaInicio]': '',
            'cicloPontos[1][horaFim]': '',
            'cicloPontos[1][voluntarios]': '',
          },
        },
        { seguir: false },
      );
    const digitado = `${ana.email}\nfulano.${cicloid}@teste.org`;
    const recusado = await enviar(digitado);
    assert.equal(recusado.status, 400);
    const erro = `Não há pessoa ativa com o e-mail fulano.${cicloid}@teste.org: confira o e-mail ou cadastre a pessoa antes`;
    assert.ok(
      recusado.texto.includes(
        `<a href="#campo-cicloPontos-0-voluntarios">Pontos de retirada, linha 1: Voluntários da retirada</a>: ${erro}`,
      ),
      'o resumo leva ao campo',
    );
    // The field keeps what was typed, says it is invalid and points at its message, just below it.
    const campo =
      /<textarea id="campo-cicloPontos-0-voluntarios" name="cicloPontos\[0\]\[voluntarios\]"[^>]*>([^<]*)<\/textarea><p class="erro" id="erro-cicloPontos\.0\.voluntarios">([^<]*)<\/p>/.exec(
        recusado.texto,
      );
    assert.ok(campo, 'a área de texto com o erro logo abaixo');
    assert.equal(campo[1], digitado);
    assert.equal(campo[2], erro);
    assert.match(recusado.texto, /aria-invalid="true" aria-describedby="erro-cicloPontos\.0\.voluntarios"/);
    assert.deepEqual(await gravados(cicloid), []);

    const aceito = await enviar(`${cida.email}, ${ana.email}`);
    assert.equal(aceito.status, 303, aceito.texto);
    const depois = await admin.nav.get(url(`/ciclo/${cicloid}`));
    // The saved set comes back in the field, and by name beside it.
    assert.match(
      depois.texto,
      new RegExp(
        `name="cicloPontos\\[0\\]\\[voluntarios\\]"[^>]*>${ana.email.replace('.', '\\.')}, ${cida.email.replace('.', '\\.')}</textarea><p class="nota">Nomeados: ${ana.nome}, ${cida.nome}</p>`,
      ),
    );
    // The cycle's page links to the coordination's view of its pickup.
    assert.match(depois.texto, new RegExp(`<a class="botao secundario" href="/retirada/${cicloid}">Retirada</a>`));
    // Whoever only reads the cycle sees no link to a page they cannot open, and cannot name anyone.
    const paraInfo = await info.nav.get(url(`/ciclo/${cicloid}`));
    assert.equal(paraInfo.status, 200);
    assert.doesNotMatch(paraInfo.texto, /href="\/retirada\//);
    const tentativa = await info.nav.postJson(url(`/ciclo/${cicloid}`), {
      nome: 'x',
      ...DATAS_PADRAO,
      cicloPontos: [{ pontoEntregaId: sede, voluntarios: '' }],
    });
    assert.equal(tentativa.status, 403);
    assert.equal((await gravados(cicloid)).length, 2);
  });

  test('na visão da retirada, um ponto de cada vez, também com o ciclo fechado; recusado, volta junto ao campo', async () => {
    const { cicloid, sede, feira, ana, beto } = await cenario();
    assert.equal((await salvar(cicloid, [{ pontoEntregaId: sede }, { pontoEntregaId: feira }])).status, 200);
    // The cycle is closed (the pickup goes on): its form is locked, naming a point's volunteers is not.
    await amb.banco
      .updateTable('ciclo')
      .set({ fechadoEm: '2026-03-10T12:00:00.000Z' })
      .where('id', '=', cicloid)
      .execute();
    const pelaFicha = await salvar(cicloid, [{ pontoEntregaId: sede, voluntarios: ana.email }]);
    assert.equal(pelaFicha.status, 409, 'o formulário do ciclo fechado não muda');
    const nomear = (corpo: unknown) => admin.nav.postJson(url(`/retirada/${cicloid}/voluntarios`), corpo);
    const r = await nomear({ pontoEntregaId: sede, voluntarios: `${beto.email}\n${ana.email}` });
    assert.equal(r.status, 200, r.texto);
    assert.deepEqual(r.json<Envelope<unknown>>().data, {
      pontoEntregaId: sede,
      voluntarios: [ana, beto].map((p) => ({ usuarioid: p.id, nome: p.nome, email: p.email })),
    });
    assert.deepEqual(
      (await gravados(cicloid)).map((v) => [v.pontoEntregaId, v.usuarioid]),
      [
        [sede, ana.id],
        [sede, beto.id],
      ],
    );
    const auditoria = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'antes', 'depois'])
      .where('entidade', '=', 'ciclo')
      .where('entidadeId', '=', String(cicloid))
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(auditoria.acao, 'nomear voluntários');
    assert.equal(auditoria.antes, JSON.stringify({ pontoEntregaId: sede, voluntarios: [] }));
    assert.match(String(auditoria.depois), new RegExp(`"usuarioid":${beto.id},`));

    // A point the cycle does not serve, an unknown e-mail, a body without the list: 400 by field, nothing changes.
    const outro = (await criarPonto(amb.banco)).id;
    const fora = await nomear({ pontoEntregaId: outro, voluntarios: ana.email });
    assert.equal(fora.status, 400);
    assert.deepEqual(fora.json<Envelope>().details, {
      pontoEntregaId: 'Este ciclo não entrega neste ponto: inclua o ponto na lista de pontos do ciclo antes',
    });
    const desconhecido = await nomear({ pontoEntregaId: feira, voluntarios: `ninguem.${cicloid}@teste.org` });
    assert.equal(desconhecido.status, 400);
    assert.deepEqual(desconhecido.json<Envelope>().details, {
      voluntarios: `Não há pessoa ativa com o e-mail ninguem.${cicloid}@teste.org: confira o e-mail ou cadastre a pessoa antes`,
    });
    const semLista = await nomear({ pontoEntregaId: feira });
    assert.equal(semLista.status, 400);
    assert.deepEqual(Object.keys(semLista.json<Envelope>().details ?? {}), ['voluntarios']);
    assert.equal((await gravados(cicloid)).length, 2, 'nada mudou');

    // The page: one form per point; refused, the view comes back with the typed text and the error under it.
    const pagina = await admin.nav.get(url(`/retirada/${cicloid}`));
    assert.match(pagina.texto, new RegExp(`<label for="voluntarios-${sede}">Sede ${cicloid}</label>`));
    assert.ok(pagina.texto.includes(`>${ana.email}, ${beto.email}</textarea>`));
    const enviar = (pontoEntregaId: number, voluntarios: string) =>
      admin.nav.post(
        url(`/retirada/${cicloid}/voluntarios`),
        { form: { _csrf: tokenCsrf(pagina.texto), pontoEntregaId: String(pontoEntregaId), voluntarios } },
        { seguir: false },
      );
    const digitado = `${ana.email}, fulano.${cicloid}@teste.org`;
    const recusado = await enviar(feira, digitado);
    assert.equal(recusado.status, 400);
    const campo = new RegExp(
      `<textarea id="voluntarios-${feira}" name="voluntarios"[^>]*aria-describedby="erro-voluntarios-${feira} ajuda-voluntarios"[^>]*aria-invalid="true">([^<]*)</textarea>\\s*<p class="erro" id="erro-voluntarios-${feira}">([^<]*)</p>`,
    ).exec(recusado.texto);
    assert.ok(campo, recusado.texto);
    assert.equal(campo[1], digitado);
    assert.equal(
      campo[2],
      `Não há pessoa ativa com o e-mail fulano.${cicloid}@teste.org: confira o e-mail ou cadastre a pessoa antes`,
    );
    assert.ok(
      recusado.texto.includes(`<a href="#voluntarios-${feira}">Voluntários da retirada</a>`),
      'o resumo leva ao campo',
    );
    const aceito = await enviar(feira, ana.email);
    assert.equal(aceito.status, 303);
    assert.equal(aceito.headers.get('location'), `/retirada/${cicloid}`);
    const depois = await admin.nav.get(url(`/retirada/${cicloid}`));
    assert.ok(depois.texto.includes(`Voluntários: ${ana.nome}.`), 'o ponto mostra quem foi nomeado');
    assert.ok(depois.texto.includes('Voluntários salvos.'));
  });
});
