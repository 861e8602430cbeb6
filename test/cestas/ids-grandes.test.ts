/**
 * Ids a JavaScript number holds but a 32-bit integer column does not (PostgreSQL would refuse the
 * query): every route answers 400 with the envelope, in JSON and in forms, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

let amb: AmbienteDeTeste;
let admin: Pessoa;
let csrf: string;
const GRANDES = ['2147483648', '999999999999999'];

before(async () => {
  amb = await iniciarAmbiente();
  admin = await entrarComo(amb, ['admin', 'consumidor', 'fornecedor']);
  csrf = await csrfDe(amb, admin.nav);
});
after(() => amb.fechar());

test('ids enormes nos formulários de oferta e de pedido: a recusa é 400, não 500', async () => {
  for (const id of GRANDES) {
    for (const caminho of ['/pedidoconsumidores', '/ofertasave']) {
      const formularios: Array<Record<string, string>> = [{ cicloid: id }, { cicloid: '1', usuarioid: id }];
      for (const form of formularios) {
        const r = await admin.nav.post(`${amb.url}${caminho}`, { form: { _csrf: csrf, ...form } }, { seguir: false });
        assert.ok(
          r.status >= 400 && r.status < 500,
          `${caminho} ${JSON.stringify(form)}: ${r.status} ${r.texto.slice(0, 200)}`,
        );
      }
    }
  }
});

test('ids enormes na escolha de ciclos dos relatórios: 400 com o envelope', async () => {
  for (const ciclos of [2147483648, 9007199254740991, [1, 2147483648]]) {
    const r = await admin.nav.postJson(`${amb.url}/relatorioprodutosciclos`, { ciclos });
    assert.equal(r.status, 400, `${JSON.stringify(ciclos)}: ${r.texto.slice(0, 200)}`);
    assert.equal(r.json<{ success: boolean }>().success, false);
  }
  for (const id of GRANDES) {
    const r = await admin.nav.getJson(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${id}`);
    assert.equal(r.status, 400, `GET ciclos=${id}: ${r.status}`);
  }
});
