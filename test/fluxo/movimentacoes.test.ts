import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCiclo, criarUsuario, DATAS_PADRAO } from '../helpers/fabricas.ts';
import type { Navegador } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  readonly success: boolean;
  readonly data: T;
  readonly error: string;
  readonly details?: Record<string, string>;
}

/** Recording payments and adjustments: what is kept, what is refused and why, and the receipts. */
describe('registro de movimentações', () => {
  let amb: AmbienteDeTeste;
  let admin: Navegador;
  let pessoa = { id: 0, email: '' };
  let outra = { id: 0, email: '' };
  const tipos = new Map<string, number>();
  const registrar = (campos: Record<string, unknown>) =>
    admin.postJson(`${amb.url}/movimentacao`, { usuarioid: pessoa.id, descricao: 'Pix', ...campos });

  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
    pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    outra = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    for (const t of await amb.banco.selectFrom('tipomovimentacao').select(['id', 'nome']).execute())
      tipos.set(t.nome, t.id);
  });
  after(() => amb.fechar());

  test('um pagamento recebido é crédito, na data de hoje por padrão, e entra no saldo', async () => {
    const r = await registrar({ tipoMovimentacaoId: tipos.get('Pagamento recebido'), valor: '12.50' });
    assert.equal(r.status, 201, r.texto);
    const { id: _id, ...mov } = r.json<Envelope<{ id: number } & Record<string, unknown>>>().data;
    assert.deepEqual(
      { ...mov },
      {
        usuarioid: pessoa.id,
        tipoMovimentacaoId: tipos.get('Pagamento recebido'),
        sentido: 'credito',
        valor: 12.5,
        data: '2026-03-07',
        descricao: 'Pix',
        arquivo: null,
        cicloid: null,
        ...pick(mov, ['criadoPor', 'createdAt', 'updatedAt']),
      },
    );
    const efetuado = await registrar({
      tipoMovimentacaoId: tipos.get('Pagamento efetuado'),
      valor: 3,
      data: '2026-03-05',
    });
    assert.equal(efetuado.status, 201, efetuado.texto);
    assert.deepEqual(pick(efetuado.json<Envelope>().data, ['sentido', 'valor', 'data']), {
      sentido: 'debito',
      valor: 3,
      data: '2026-03-05',
    });
    const linhas = await amb.banco
      .selectFrom('movimentacao')
      .select(['sentido', 'valorCentavos'])
      .where('usuarioid', '=', pessoa.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(linhas, [
      { sentido: 'credito', valorCentavos: 1250 },
      { sentido: 'debito', valorCentavos: 300 },
    ]);
  });

  test('um ajuste precisa dizer se é crédito ou débito, e fica como foi dito', async () => {
    const sem = await registrar({ tipoMovimentacaoId: tipos.get('Ajuste'), valor: 1 });
    assert.equal(sem.status, 400);
    assert.deepEqual(sem.json<Envelope>().details, { sentido: 'Escolha crédito ou débito para um ajuste' });
    for (const sentido of ['debito', 'credito'] as const) {
      const r = await registrar({ tipoMovimentacaoId: tipos.get('Ajuste'), valor: 1, sentido });
      assert.equal(r.status, 201, r.texto);
      assert.equal(r.json<Envelope<{ sentido: string }>>().data.sentido, sentido);
    }
    // A type with a fixed direction keeps it whatever is sent.
    const fixo = await registrar({ tipoMovimentacaoId: tipos.get('Pagamento recebido'), valor: 1, sentido: 'debito' });
    assert.equal(fixo.json<Envelope<{ sentido: string }>>().data.sentido, 'credito');
  });

  test('tipo, pessoa e ciclo inexistentes são apontados juntos, e nada é gravado', async () => {
    const antes = await amb.banco.selectFrom('movimentacao').select('id').execute();
    const r = await admin.postJson(`${amb.url}/movimentacao`, {
      usuarioid: 999_999,
      tipoMovimentacaoId: 999_999,
      cicloid: 999_999,
      valor: 1,
      descricao: 'x',
    });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json<Envelope>().details, {
      tipoMovimentacaoId: 'Tipo de movimentação inexistente',
      usuarioid: 'Pessoa inexistente',
      cicloid: 'Ciclo inexistente',
    });
    const ciclo = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const comCiclo = await registrar({
      tipoMovimentacaoId: tipos.get('Pagamento recebido'),
      valor: 2,
      cicloid: ciclo.id,
    });
    assert.equal(comCiclo.json<Envelope<{ cicloid: number }>>().data.cicloid, ciclo.id);
    for (const [campos, campo] of [
      [{ valor: 0 }, 'valor'],
      [{ valor: 1, descricao: '' }, 'descricao'],
      [{ valor: 1, data: '2026-02-30' }, 'data'],
    ] as const) {
      const ruim = await registrar({ tipoMovimentacaoId: tipos.get('Pagamento recebido'), ...campos });
      assert.equal(ruim.status, 400, JSON.stringify(campos));
      assert.ok(Object.keys(ruim.json<Envelope>().details ?? {}).includes(campo), `${campo}: ${ruim.texto}`);
    }
    assert.equal(
      (await amb.banco.selectFrom('movimentacao').select('id').execute()).length,
      antes.length + 1,
      'só a do ciclo existente entrou',
    );
  });

  test('comprovantes PNG e JPEG entram com a extensão certa; sem comprovante, não há o que baixar', async () => {
    const pagina = await admin.get(`${amb.url}/movimentacao`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(pagina.texto)?.[1] ?? '';
    const enviar = (conteudo: Uint8Array<ArrayBuffer>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({
        usuarioid: String(pessoa.id),
        tipoMovimentacaoId: String(tipos.get('Pagamento recebido')),
        valor: '5',
        descricao: 'Pix',
        _csrf: csrf,
      }))
        f.append(k, v);
      f.append('arquivo', new Blob([conteudo]), 'comprovante');
      return fetch(`${amb.url}/movimentacao`, {
        method: 'POST',
        body: f,
        headers: { cookie: `appSession=${admin.cookie(amb.url, 'appSession') ?? ''}`, accept: 'application/json' },
      });
    };
    const png = await enviar(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]));
    assert.equal(png.status, 201, await png.clone().text());
    const movPng = ((await png.json()) as Envelope<{ id: number; arquivo: string }>).data;
    assert.match(movPng.arquivo, /^[0-9a-f-]{36}\.png$/);
    const jpg = await enviar(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]));
    assert.equal(jpg.status, 201);
    const movJpg = ((await jpg.json()) as Envelope<{ id: number; arquivo: string }>).data;
    assert.match(movJpg.arquivo, /^[0-9a-f-]{36}\.jpg$/);
    const baixado = await admin.get(`${amb.url}/movimentacao/${movPng.id}/arquivo`);
    assert.equal(baixado.status, 200);
    assert.equal(baixado.headers.get('content-type'), 'image/png');
    assert.match(baixado.headers.get('content-disposition') ?? '', new RegExp(`comprovante-${movPng.id}\\.png`));
    assert.equal(
      (await admin.get(`${amb.url}/movimentacao/${movJpg.id}/arquivo`)).headers.get('content-type'),
      'image/jpeg',
    );
    // The owner downloads their own; someone else gets 404, as for a movement without a file.
    assert.equal(
      (await navegadorComSessao(amb, pessoa.email).get(`${amb.url}/movimentacao/${movPng.id}/arquivo`)).status,
      200,
    );
    assert.equal(
      (await navegadorComSessao(amb, outra.email).get(`${amb.url}/movimentacao/${movPng.id}/arquivo`)).status,
      404,
    );
    const semArquivo = await amb.banco
      .selectFrom('movimentacao')
      .select('id')
      .where('arquivo', 'is', null)
      .executeTakeFirstOrThrow();
    assert.equal((await admin.get(`${amb.url}/movimentacao/${semArquivo.id}/arquivo`)).status, 404);
  });
});

function pick(o: object, chaves: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => chaves.includes(k)));
}
