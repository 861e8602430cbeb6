/**
 * The cycle's form as the server writes it, for a browser without JavaScript (issue 37): no
 * extras list before there is surplus, the start date in the past warned about but accepted, a
 * refused save with its warning and its values, and the closing said in the community's zone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarOfertaFinalizada, criarProduto } from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

describe('o formulário do ciclo sem JavaScript', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    admin = await entrarComo(amb, ['admin']);
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  async function enviar(dados: Record<string, string>) {
    const form = await admin.nav.get(url('/ciclo'));
    return admin.nav.post(url('/ciclo'), {
      form: {
        _csrf: tokenCsrf(form.texto),
        _listas: 'cicloEntregas,cicloCestas,cicloProdutos',
        ...DATAS_PADRAO,
        ativo: 'true',
        'cicloEntregas[0][dataEntrega]': '',
        'cicloEntregas[0][observacao]': '',
        ...dados,
      },
    });
  }

  test('o novo ciclo não tem a lista de extras, e diz por quê', async () => {
    const r = await admin.nav.get(url('/ciclo'));
    assert.doesNotMatch(r.texto, /name="cicloProdutos\[/);
    assert.match(
      r.texto,
      /id="lista-cicloProdutos">\s*<p><strong>Extras \(produtos avulsos\)<\/strong><\/p>\s*<p class="nota">Os extras aparecem aqui depois de salvar o ciclo, quando as ofertas finalizadas deixarem sobra além das cestas: só essa sobra pode ser vendida como extra\.<\/p>/,
    );
    // The other lists keep their two spare rows for a browser without JavaScript.
    assert.equal((r.texto.match(/<tr data-reserva>/g) ?? []).length, 6);
  });

  test('o início no passado é avisado junto ao campo e aceito; a recusa por outro campo volta com o aviso', async () => {
    // DATAS_PADRAO starts on 01/03, before "today" (07/03).
    const recusado = await enviar({ nome: 'Passado', 'cicloEntregas[0][dataEntrega]': '2027-01-01' });
    assert.equal(recusado.status, 400);
    assert.match(recusado.texto, /id="campo-dataOfertaInicio" name="dataOfertaInicio" value="2026-03-01"/);
    assert.match(recusado.texto, /aria-describedby="aviso-dataOfertaInicio"/);
    assert.match(
      recusado.texto,
      /<p class="alerta-suave" id="aviso-dataOfertaInicio" role="status" data-texto="[^"]*" >Esta data já passou \(hoje é 07\/03\/2026\)\. Dá para salvar assim, mas confira se não é engano\.<\/p>/,
    );
    assert.match(recusado.texto, /Deve estar dentro das datas do ciclo/);
    const salvo = await enviar({ nome: 'Passado' });
    assert.equal(salvo.status, 200, salvo.texto.slice(0, 500));
    assert.match(new URL(salvo.url).pathname, /^\/ciclo\/\d+$/);
    // Saved, the start is the cycle's own: no warning on it any more.
    assert.match(salvo.texto, /id="aviso-dataOfertaInicio" role="status" data-texto="[^"]*" hidden><\/p>/);
  });

  test('com sobra das ofertas a lista de extras aparece; o fechamento sai no fuso da comunidade', async () => {
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const semSobra = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.match(semSobra.texto, /deixarem sobra além das cestas \(ainda não há\)/);
    const produto = await criarProduto(amb.banco, { nome: 'Abóbora', unidade: 'kg' });
    await criarOfertaFinalizada(amb.banco, c.id, [
      { produtoId: produto.id, quantidadeMilesimos: 5000, valorCentavos: 200 },
    ]);
    const comSobra = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.match(comSobra.texto, /<legend>Extras \(produtos avulsos\)<\/legend>/);
    assert.match(comSobra.texto, /name="cicloProdutos\[0\]\[produtoId\]"/);

    amb.relogio.definir('2026-03-10T12:33:00Z');
    const previa = await admin.nav.get(url(`/fecharciclo/${c.id}`));
    const fechado = await admin.nav.post(url(`/fecharciclo/${c.id}`), { form: { _csrf: tokenCsrf(previa.texto) } });
    assert.equal(fechado.status, 200);
    assert.match(fechado.texto, /Ciclo fechado: nenhuma movimentação nova a registrar\./);
    assert.match(fechado.texto, /Ciclo fechado em 10\/03\/2026 às 09:33:/);
    amb.relogio.definir('2026-03-10T12:34:00Z');
    const outraVez = await admin.nav.post(url(`/fecharciclo/${c.id}`), { form: { _csrf: tokenCsrf(previa.texto) } });
    assert.match(outraVez.texto, /Ciclo já estava fechado: nada mudou\./);
    assert.match(
      (await admin.nav.get(url(`/fecharciclo/${c.id}`))).texto,
      /Este ciclo já foi fechado em 10\/03\/2026 às 09:33\./,
    );
    amb.relogio.definir('2026-03-07T15:00:00Z');
  });

  test('uma cesta do ciclo ainda cabe no formulário recusado sem linhas em branco a mais', async () => {
    const cesta = await criarCesta(amb.banco, { nome: 'Cesta pequena' });
    const r = await enviar({
      nome: '',
      'cicloCestas[0][cestaId]': String(cesta.id),
      'cicloCestas[0][quantidadeCestas]': '5',
      'cicloCestas[1][cestaId]': '',
      'cicloCestas[1][quantidadeCestas]': '',
      'cicloCestas[2][cestaId]': '',
      'cicloCestas[2][quantidadeCestas]': '',
    });
    assert.equal(r.status, 400);
    assert.match(r.texto, /id="campo-nome" name="nome" value=""/);
    // One typed row and the usual two spares, not the blank rows sent plus two more.
    assert.equal((r.texto.match(/name="cicloCestas\[\d+\]\[cestaId\]"/g) ?? []).length, 3);
    assert.match(r.texto, /name="cicloCestas\[0\]\[quantidadeCestas\]" value="5"/);
  });
});
