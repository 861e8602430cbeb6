import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { VALIDADE_PENDENTE_MS } from '../../src/cestas/comprovante-pendente.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/** A PDF's bytes: what the receipt check reads is the signature, the rest is this test's mark. */
const PDF = Buffer.from('%PDF-1.4\n% comprovante do Pix de março\n%%EOF\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);

/**
 * A payment form refused for a bad value keeps the receipt already attached (a browser cannot
 * fill a file input again): the redrawn form says which file was kept and carries a sealed
 * reference, and the corrected form sent without a file records the movement with that file.
 * The reference only works for the login that sent the file, cannot be forged or altered, and
 * expires; pending files are removed when used, replaced or expired.
 */
describe('o comprovante de um formulário recusado não se perde', () => {
  const relogio = new RelogioDeTeste('2026-03-07T15:00:00Z');
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let outraAdmin: Pessoa;
  let pessoa = { id: 0 };
  let tipo = 0;

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin'], 'Bruna Tesoureira');
    outraAdmin = await entrarComo(amb, ['admin'], 'Caio Tesoureiro');
    pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Dalva Pagadora' });
    tipo = (
      await amb.banco
        .selectFrom('tipomovimentacao')
        .select('id')
        .where('nome', '=', 'Pagamento recebido')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => amb.fechar());

  const pendentes = () =>
    existsSync(join(amb.config.dirArquivos, 'pendentes')) ? readdirSync(join(amb.config.dirArquivos, 'pendentes')) : [];
  const movimentacoes = () =>
    amb.banco
      .selectFrom('movimentacao')
      .select(['id', 'valorCentavos', 'arquivo', 'descricao'])
      .where('usuarioid', '=', pessoa.id)
      .orderBy('id')
      .execute();

  /**
   * The payment form as a browser posts it: multipart, the file input always present (empty when
   * nothing was chosen), and the hidden reference when the page carried one.
   */
  async function enviar(
    quem: Pessoa,
    campos: Record<string, string>,
    arquivo: { nome: string; conteudo: Buffer } | null,
    accept = 'text/html',
  ) {
    const f = new FormData();
    const todos = {
      _csrf: await csrfDe(amb, quem.nav),
      usuarioid: String(pessoa.id),
      tipoMovimentacaoId: String(tipo),
      descricao: 'Pix',
      ...campos,
    };
    for (const [k, v] of Object.entries(todos)) f.append(k, v);
    f.append(
      'arquivo',
      new Blob([new Uint8Array(arquivo?.conteudo ?? Buffer.alloc(0))], {
        type: arquivo === null ? 'application/octet-stream' : 'application/pdf',
      }),
      arquivo?.nome ?? '',
    );
    const r = await fetch(`${amb.url}/movimentacao`, {
      method: 'POST',
      body: f,
      headers: { cookie: `appSession=${quem.nav.cookie(amb.url, 'appSession') ?? ''}`, accept },
      redirect: 'manual',
    });
    return { status: r.status, texto: await r.text(), local: r.headers.get('location') };
  }

  const referenciaEm = (pagina: string): string => {
    const m = /<input type="hidden" name="comprovantePendente" value="([^"]+)">/.exec(pagina);
    assert.ok(m?.[1] !== undefined, 'o formulário redesenhado traz a referência ao comprovante');
    return m[1];
  };

  test('um valor inválido volta o formulário com o comprovante guardado; corrigido, a movimentação fica com ele, byte a byte', async () => {
    const antes = await movimentacoes();
    const recusado = await enviar(admin, { valor: 'doze reais' }, { nome: 'comprovante-março.pdf', conteudo: PDF });
    assert.equal(recusado.status, 400, recusado.texto.slice(0, 300));
    assert.match(recusado.texto, /Digite um número, como 1,5 ou 1\.234,56/, 'a mensagem do valor');
    assert.match(recusado.texto, /Comprovante já enviado: <strong>comprovante-março\.pdf<\/strong>/);
    assert.match(recusado.texto, /value="doze reais"/, 'o que foi digitado volta');
    const referencia = referenciaEm(recusado.texto);
    assert.doesNotMatch(referencia, /pendentes|\.pdf/, 'a referência não mostra caminho nem nome guardado');
    assert.deepEqual(await movimentacoes(), antes, 'nada foi registrado');
    assert.equal(pendentes().length, 1, 'o arquivo ficou guardado à espera');

    // A second refusal, without choosing the file again, keeps the same receipt.
    const outraVez = await enviar(admin, { valor: '', comprovantePendente: referencia }, null);
    assert.equal(outraVez.status, 400);
    assert.match(outraVez.texto, /Comprovante já enviado: <strong>comprovante-março\.pdf<\/strong>/);
    assert.equal(referenciaEm(outraVez.texto), referencia);

    const corrigido = await enviar(admin, { valor: 'R$ 12,50', comprovantePendente: referencia }, null);
    assert.equal(corrigido.status, 303, corrigido.texto.slice(0, 300));
    const [mov] = (await movimentacoes()).slice(antes.length);
    assert.ok(mov !== undefined, 'a movimentação foi registrada');
    assert.equal(mov.valorCentavos, 1250);
    assert.match(mov.arquivo ?? '', /^[0-9a-f-]{36}\.pdf$/);
    const baixado = await admin.nav.get(`${amb.url}/movimentacao/${mov.id}/arquivo`);
    assert.equal(baixado.status, 200);
    assert.equal(baixado.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(
      await (
        await fetch(`${amb.url}/movimentacao/${mov.id}/arquivo`, {
          headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
        })
      ).arrayBuffer(),
    );
    assert.ok(bytes.equals(PDF), 'o comprovante baixado é o arquivo enviado no primeiro envio');
    assert.deepEqual(pendentes(), [], 'o arquivo pendente foi usado e apagado');

    // Used once, the reference names nothing any more.
    const repetido = await enviar(admin, { valor: '1', comprovantePendente: referencia }, null);
    assert.equal(repetido.status, 400);
    assert.match(
      repetido.texto,
      /O comprovante enviado antes expirou ou não vale nesta sessão: escolha o arquivo de novo/,
    );
  });

  test('a referência só vale para quem enviou o arquivo: outra pessoa, uma referência alterada ou inventada são recusadas', async () => {
    const recusado = await enviar(admin, { valor: '-3' }, { nome: 'pix-da-dalva.pdf', conteudo: PDF });
    assert.equal(recusado.status, 400);
    const referencia = referenciaEm(recusado.texto);
    const antes = await movimentacoes();
    const alterada = `${referencia.slice(0, 20)}${referencia[20] === 'A' ? 'B' : 'A'}${referencia.slice(21)}`;
    const tentativas: Array<[Pessoa, string, string]> = [
      [outraAdmin, referencia, 'a referência de outra pessoa'],
      [admin, alterada, 'uma referência alterada'],
      [admin, '../../../etc/passwd', 'um caminho'],
      [admin, `${Date.now()}-00000000-0000-4000-8000-000000000000.pdf`, 'um nome de arquivo pendente'],
    ];
    for (const [quem, ref, oQue] of tentativas) {
      const r = await enviar(quem, { valor: '10', comprovantePendente: ref }, null);
      assert.equal(r.status, 400, `${oQue}: ${r.texto.slice(0, 200)}`);
      assert.match(
        r.texto,
        /O comprovante enviado antes expirou ou não vale nesta sessão: escolha o arquivo de novo/,
        oQue,
      );
      assert.doesNotMatch(r.texto, /Comprovante já enviado/, `${oQue}: a página não mostra o arquivo de ninguém`);
      assert.doesNotMatch(r.texto, /name="comprovantePendente"/, oQue);
    }
    const json = await enviar(outraAdmin, { valor: '10', comprovantePendente: referencia }, null, 'application/json');
    assert.equal(json.status, 400);
    assert.deepEqual(JSON.parse(json.texto).details, {
      arquivo: 'O comprovante enviado antes expirou ou não vale nesta sessão: escolha o arquivo de novo',
    });
    assert.deepEqual(await movimentacoes(), antes, 'nada foi registrado');
    assert.equal(pendentes().length, 1, 'o arquivo de quem enviou continua guardado');

    // Its owner still uses it.
    const dela = await enviar(admin, { valor: '10', comprovantePendente: referencia }, null);
    assert.equal(dela.status, 303, dela.texto.slice(0, 300));
    assert.deepEqual(pendentes(), []);
  });

  test('um novo arquivo troca o guardado; o antigo é apagado', async () => {
    const primeiro = await enviar(admin, { valor: 'x' }, { nome: 'errado.pdf', conteudo: PDF });
    const referencia = referenciaEm(primeiro.texto);
    const [antigo] = pendentes();
    const segundo = await enviar(
      admin,
      { valor: 'y', comprovantePendente: referencia },
      { nome: 'certo.png', conteudo: PNG },
    );
    assert.equal(segundo.status, 400);
    assert.match(segundo.texto, /Comprovante já enviado: <strong>certo\.png<\/strong>/);
    assert.ok(!pendentes().includes(antigo ?? ''), 'o arquivo trocado foi apagado');
    assert.equal(pendentes().length, 1);
    const final = await enviar(admin, { valor: '7,00', comprovantePendente: referenciaEm(segundo.texto) }, null);
    assert.equal(final.status, 303);
    const mov = (await movimentacoes()).at(-1);
    assert.match(mov?.arquivo ?? '', /\.png$/);
    assert.deepEqual(pendentes(), []);
  });

  test('um arquivo que não é comprovante não é guardado, e a página diz por quê', async () => {
    const r = await enviar(
      admin,
      { valor: 'x' },
      { nome: 'planilha.xlsx', conteudo: Buffer.from('PK\u0003\u0004 planilha') },
    );
    assert.equal(r.status, 400);
    assert.match(r.texto, /O comprovante deve ser PDF, PNG ou JPEG/);
    assert.doesNotMatch(r.texto, /Comprovante já enviado/);
    assert.deepEqual(pendentes(), []);
  });

  test('o comprovante guardado expira: a referência vencida é recusada, e o arquivo é varrido quando outro chega', async () => {
    const recusado = await enviar(admin, { valor: 'x' }, { nome: 'velho.pdf', conteudo: PDF });
    const referencia = referenciaEm(recusado.texto);
    const [velho] = pendentes();
    relogio.avancar(VALIDADE_PENDENTE_MS + 1000);
    const vencida = await enviar(admin, { valor: '10', comprovantePendente: referencia }, null);
    assert.equal(vencida.status, 400);
    assert.match(
      vencida.texto,
      /O comprovante enviado antes expirou ou não vale nesta sessão: escolha o arquivo de novo/,
    );
    assert.ok(pendentes().includes(velho ?? ''), 'ainda não varrido');
    const novo = await enviar(admin, { valor: 'x' }, { nome: 'novo.pdf', conteudo: PDF });
    assert.equal(novo.status, 400);
    assert.ok(!pendentes().includes(velho ?? ''), 'o vencido foi varrido');
    assert.equal(pendentes().length, 1, 'só o novo espera');
  });
});
