/**
 * Pix through real HTTP and real logins: each person's charge (the ledger balance carried, line by
 * line), and bank statements (OFX and CSV, built here) matched, reviewed and settled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  criarCesta,
  criarCiclo,
  criarPonto,
  criarUsuario,
  dividaAnterior,
  type DatasDoCiclo,
} from '../helpers/fabricas.ts';
import { CaixaDeTeste } from '../helpers/correio.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

// Closed windows (2026-03), so the admin can close each cycle today.
const DATAS: DatasDoCiclo = {
  dataOfertaInicio: '2026-03-01',
  dataOfertaFim: '2026-03-04',
  dataPedidoInicio: '2026-03-06',
  dataPedidoFim: '2026-03-09',
  dataRetiradaInicio: '2026-03-11',
  dataRetiradaFim: '2026-03-12',
};

interface CobrancaJson {
  usuarioid: number;
  devido: number;
  txid: string;
  linhas: Array<{ tipo: string; descricao: string; valor: number; cicloid: number | null }>;
  pix: { copiaECola: string; valor: number; txid: string; qrSvg: string } | null;
}

interface Extrato {
  pendentes: Array<{
    id: number;
    idBanco: string;
    valor: number;
    proposta: string | null;
    usuario: { id: number } | null;
    candidatos: Array<{ id: number }>;
    txid: string | null;
    estado: string;
  }>;
  resolvidas: Array<{ id: number; estado: string; movimentacaoid: number | null; motivo: string | null }>;
}

function ofx(
  transacoes: ReadonlyArray<{ fitid: string; data: string; valor: string; memo: string; documento?: string }>,
): string {
  return `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX>
<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261120<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0001<ACCTID>99887<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20261101<DTEND>20261130
${transacoes.map((t) => `<STMTTRN><TRNTYPE>${t.valor.startsWith('-') ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${t.data.replaceAll('-', '')}120000[-3:BRT]<TRNAMT>${t.valor}<FITID>${t.fitid}${t.documento === undefined ? '' : `<CHECKNUM>${t.documento}`}<MEMO>${t.memo}</STMTTRN>`).join('\n')}
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`;
}

describe('Pix: cobrança, saldo que passa de um ciclo ao outro e extratos do banco', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let consumidora: Pessoa;
  let outro: Pessoa;

  before(async () => {
    amb = await iniciarAmbiente({
      env: {
        PIX_CHAVE: 'financeiro@cestas.org',
        PIX_NOME: 'Associação Raízes',
        PIX_CIDADE: 'São Carlos',
        TAXA_PEDIDO_PERCENTUAL: '2.50',
      },
    });
    admin = await entrarComo(amb, ['admin'], 'Coordenação');
    consumidora = await entrarComo(amb, ['consumidor'], 'Maria José da Silva');
    outro = await entrarComo(amb, ['consumidor'], 'Outra Pessoa');
  });
  after(() => amb.fechar());

  /** A cycle with one confirmed order of `centavos` worth of baskets for the person. */
  async function cicloComPedido(usuarioid: number, centavos: number): Promise<{ cicloid: number; pedidoId: number }> {
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, { datas: DATAS, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
    const ponto = await criarPonto(amb.banco);
    const iso = new Date().toISOString();
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: ciclo.id,
        usuarioid,
        pontoEntregaId: ponto.id,
        finalizado: true,
        dataConfirmacao: '2026-03-07T10:00:00',
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco
      .insertInto('pedidoproduto')
      .values({
        pedidoid: pedido.id,
        cicloCestaId: ciclo.cicloCestas[0] ?? 0,
        quantidadeMilesimos: 1000,
        valorCentavos: centavos,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    return { cicloid: ciclo.id, pedidoId: pedido.id };
  }

  async function fechar(cicloid: number): Promise<void> {
    const r = await admin.nav.postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
    assert.equal(r.status, 200, r.texto);
  }

  async function saldo(p: Pessoa, de?: number): Promise<CobrancaJson> {
    const r = await p.nav.getJson(`${amb.url}/saldo${de === undefined ? '' : `?usuarioid=${de}`}`);
    assert.equal(r.status, 200, r.texto);
    return r.json<{ data: CobrancaJson }>().data;
  }

  async function livro(usuarioid: number): Promise<number> {
    const linhas = await amb.banco
      .selectFrom('movimentacao')
      .select(['sentido', 'valorCentavos'])
      .where('usuarioid', '=', usuarioid)
      .execute();
    return linhas.reduce((t, l) => t + (l.sentido === 'credito' ? l.valorCentavos : -l.valorCentavos), 0);
  }

  async function importar(
    arquivo: string | Buffer,
    nome: string,
    campos: Record<string, string> = {},
    quem: Pessoa = admin,
  ): Promise<{
    status: number;
    corpo: { data?: Record<string, number>; message?: string; error?: string; details?: Record<string, string> };
  }> {
    const f = new FormData();
    for (const [k, v] of Object.entries(campos)) f.append(k, v);
    f.append(
      'arquivo',
      new Blob([new Uint8Array(typeof arquivo === 'string' ? Buffer.from(arquivo, 'latin1') : arquivo)]),
      nome,
    );
    const r = await fetch(`${amb.url}/extratos`, {
      method: 'POST',
      body: f,
      headers: { cookie: `appSession=${quem.nav.cookie(amb.url, 'appSession') ?? ''}`, accept: 'application/json' },
    });
    return {
      status: r.status,
      corpo: (await r.json()) as { data?: Record<string, number>; message?: string; error?: string },
    };
  }

  async function extrato(): Promise<Extrato> {
    const r = await admin.nav.getJson(`${amb.url}/extratos`);
    assert.equal(r.status, 200, r.texto);
    return r.json<{ data: Extrato }>().data;
  }

  async function contar(tabela: 'extratolinha' | 'movimentacao'): Promise<number> {
    return (await amb.banco.selectFrom(tabela).select('id').execute()).length;
  }

  test('três ciclos: a dívida passa ao ciclo seguinte, é paga por Pix (txid) e o saldo confere com o livro-caixa ao centavo', async () => {
    const u = consumidora.id ?? 0;
    // Cycle 1: R$ 80,00 + 2,5 % = R$ 82,00, closed.
    const c1 = await cicloComPedido(u, 8000);
    await fechar(c1.cicloid);
    let s = await saldo(consumidora);
    assert.equal(s.devido, 82);
    assert.equal(s.devido * -100, await livro(u), 'sem pedidos em aberto, o devido é o saldo do livro-caixa');
    assert.equal(s.txid, `CST${u}C${c1.cicloid}`);
    assert.ok(
      s.pix !== null &&
        s.pix.valor === 82 &&
        s.pix.copiaECola.includes(`05${String(s.txid.length).padStart(2, '0')}${s.txid}`),
    );

    // A partial payment by statement (txid in the memo): R$ 50,00 of the 82,00.
    const r1 = await importar(
      ofx([{ fitid: 'T1', data: '2026-03-15', valor: '50.00', memo: `PIX RECEBIDO ${s.txid} MARIA` }]),
      'marco.ofx',
    );
    assert.equal(r1.status, 201, JSON.stringify(r1.corpo));
    const linha1 = (await extrato()).pendentes.find((l) => l.idBanco === 'ofx:0001:99887:T1');
    assert.ok(linha1 !== undefined);
    assert.equal(linha1.proposta, 'txid');
    assert.equal(linha1.usuario?.id, u);
    const conf = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, {
      linhas: [{ id: linha1.id, usuarioid: u }],
    });
    assert.equal(conf.status, 200, conf.texto);
    const mov = await amb.banco
      .selectFrom('movimentacao as m')
      .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
      .select(['t.nome', 'm.valorCentavos', 'm.chave', 'm.descricao', 'm.cicloid', 'm.data'])
      .where('m.chave', '=', 'extrato:ofx:0001:99887:T1')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...mov, descricao: undefined },
      {
        nome: 'Pagamento recebido',
        valorCentavos: 5000,
        chave: 'extrato:ofx:0001:99887:T1',
        descricao: undefined,
        cicloid: c1.cicloid,
        data: '2026-03-15',
      },
    );
    assert.match(mov.descricao, /marco\.ofx.*PIX RECEBIDO/);

    // Cycle 2: R$ 40,00 + 1,00 confirmed, not closed: R$ 32,00 carried + R$ 41,00 = R$ 73,00, line by line.
    const c2 = await cicloComPedido(u, 4000);
    s = await saldo(consumidora);
    assert.deepEqual(
      s.linhas.map((l) => [l.tipo, l.valor, l.cicloid]),
      [
        ['saldo', 32, null],
        ['pedido', 41, c2.cicloid],
      ],
    );
    assert.match(s.linhas[0]?.descricao ?? '', /Saldo devedor/);
    assert.equal(s.devido, 73);
    assert.equal(s.txid, `CST${u}C${c2.cicloid}`);
    // The confirmation page carries the same charge and its Pix.
    const pagina = await consumidora.nav.getJson(`${amb.url}/pedidoconsumidoresconfirmacao/${c2.pedidoId}`);
    assert.equal(pagina.json<{ data: { cobranca: CobrancaJson } }>().data.cobranca.devido, 73);
    const html = await consumidora.nav.get(`${amb.url}/pedidoconsumidoresconfirmacao/${c2.pedidoId}`);
    assert.ok(html.texto.includes(s.pix?.copiaECola ?? '-'), 'a página mostra o Pix copia e cola');
    assert.match(html.texto, /<svg [^>]*viewBox/);
    await fechar(c2.cicloid);
    assert.equal((await saldo(consumidora)).devido, 73, 'fechar o ciclo só move o pedido para o livro-caixa');
    assert.equal(await livro(u), -7300);

    // Cycle 3: R$ 20,00 + 0,50; then the whole R$ 93,50 paid, matched by amount and name (no txid).
    const c3 = await cicloComPedido(u, 2000);
    s = await saldo(consumidora);
    assert.equal(s.devido, 93.5);
    const r2 = await importar(
      ofx([{ fitid: 'T2', data: '2026-03-20', valor: '93,50', memo: 'PIX RECEBIDO - MARIA JOSE DA SILVA' }]),
      'marco2.ofx',
    );
    assert.equal(r2.status, 201, JSON.stringify(r2.corpo));
    const linha2 = (await extrato()).pendentes.find((l) => l.idBanco === 'ofx:0001:99887:T2');
    assert.equal(linha2?.proposta, 'nome');
    assert.equal(linha2?.usuario?.id, u);
    assert.equal(
      (await admin.nav.postJson(`${amb.url}/extratos/conciliar`, { linhas: [{ id: linha2?.id, usuarioid: u }] }))
        .status,
      200,
    );
    assert.equal((await saldo(consumidora)).devido, 0);
    await fechar(c3.cicloid);
    s = await saldo(consumidora);
    assert.equal(s.devido, 0);
    assert.equal(s.pix, null, 'nada devido, nenhum Pix');
    assert.equal(await livro(u), 0, 'o livro-caixa fecha em zero, ao centavo');
  });

  test('o mesmo extrato duas vezes, ou sobreposto, não registra nada duas vezes', async () => {
    const pessoa = await criarUsuario(amb.banco, { nome: 'Joana Duplicada' });
    await cicloComPedido(pessoa.id, 3000);
    const txid = (await saldo(admin, pessoa.id)).txid;
    const arquivo = ofx([
      { fitid: 'D1', data: '2026-03-21', valor: '30.75', memo: `PIX ${txid}` },
      { fitid: 'D2', data: '2026-03-21', valor: '-12.00', memo: 'TARIFA' },
    ]);
    const primeira = await importar(arquivo, 'a.ofx');
    assert.equal(primeira.status, 201);
    assert.deepEqual(
      { novas: primeira.corpo.data?.novas, ignoradas: primeira.corpo.data?.ignoradas },
      { novas: 1, ignoradas: 1 },
    );
    const linhas = await contar('extratolinha');
    const segunda = await importar(arquivo, 'a-de-novo.ofx');
    assert.equal(segunda.status, 200);
    assert.deepEqual(
      { novas: segunda.corpo.data?.novas, repetidas: segunda.corpo.data?.repetidas },
      { novas: 0, repetidas: 1 },
    );
    assert.equal(await contar('extratolinha'), linhas);
    const l = (await extrato()).pendentes.find((x) => x.idBanco === 'ofx:0001:99887:D1');
    assert.equal(
      (await admin.nav.postJson(`${amb.url}/extratos/conciliar`, { linhas: [{ id: l?.id, usuarioid: pessoa.id }] }))
        .status,
      200,
    );
    const movs = await contar('movimentacao');
    // Confirming again, and an overlapping statement, change nothing.
    const outra = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, {
      linhas: [{ id: l?.id, usuarioid: pessoa.id }],
    });
    assert.equal(outra.status, 409, outra.texto);
    const sobreposto = await importar(
      ofx([
        { fitid: 'D1', data: '2026-03-21', valor: '30.75', memo: `PIX ${txid}` },
        { fitid: 'D3', data: '2026-03-22', valor: '5.00', memo: 'PIX AVULSO' },
      ]),
      'b.ofx',
    );
    assert.deepEqual(
      { novas: sobreposto.corpo.data?.novas, repetidas: sobreposto.corpo.data?.repetidas },
      { novas: 1, repetidas: 1 },
    );
    assert.equal(await contar('movimentacao'), movs);
    assert.equal(
      (
        await amb.banco
          .selectFrom('movimentacao')
          .select('id')
          .where('chave', '=', 'extrato:ofx:0001:99887:D1')
          .execute()
      ).length,
      1,
    );
  });

  test('CSV em ISO-8859-1 com mapeamento salvo: valor e nome sem acentos nem maiúsculas; dois que devem o mesmo ficam para a revisão', async () => {
    const ana = await criarUsuario(amb.banco, { nome: 'Ana Luísa Prado' });
    const bia = await criarUsuario(amb.banco, { nome: 'Beatriz Prado' });
    const caio = await criarUsuario(amb.banco, { nome: 'Caio Ângelo' });
    for (const p of [ana, bia]) await cicloComPedido(p.id, 4400);
    await cicloComPedido(caio.id, 1000);
    const csv =
      'Data;Histórico;Valor;Pagador\n' +
      '22/03/2026;PIX RECEBIDO;10,25;CAIO ANGELO\n' +
      '22/03/2026;PIX RECEBIDO;45,10;FAMILIA PRADO\n' +
      '22/03/2026;PIX RECEBIDO;45,10;FAMILIA PRADO\n' +
      ';;;\n' +
      '23/03/2026;TARIFA PACOTE;-9,90;\n';
    const bytes = Buffer.from(csv, 'latin1');
    assert.ok(!bytes.equals(Buffer.from(csv, 'utf8')), 'o arquivo não é UTF-8');
    const campos = {
      separador: ';',
      colunaData: 'data',
      colunaValor: 'VALOR',
      colunaDescricao: 'historico',
      colunaPagador: 'Pagador',
      salvarMapeamento: 'on',
      nomeMapeamento: 'Banco da comunidade',
    };
    const r = await importar(bytes, 'marco.csv', campos);
    assert.equal(r.status, 201, JSON.stringify(r.corpo));
    assert.deepEqual(
      {
        novas: r.corpo.data?.novas,
        porNome: r.corpo.data?.porNome,
        ambiguas: r.corpo.data?.ambiguas,
        ignoradas: r.corpo.data?.ignoradas,
      },
      { novas: 3, porNome: 1, ambiguas: 2, ignoradas: 1 },
    );
    const x = await extrato();
    const deCaio = x.pendentes.filter((l) => l.valor === 10.25);
    assert.equal(deCaio.length, 1);
    assert.equal(deCaio[0]?.usuario?.id, caio.id);
    const ambiguas = x.pendentes.filter((l) => l.valor === 45.1);
    assert.equal(ambiguas.length, 2, 'dois pagamentos iguais no mesmo dia são duas linhas');
    for (const l of ambiguas) {
      assert.equal(l.proposta, 'ambigua');
      assert.equal(l.usuario, null, 'ninguém é escolhido por quem revisa');
      assert.deepEqual(
        l.candidatos.map((c) => c.id).sort((a, b) => a - b),
        [ana.id, bia.id].sort((a, b) => a - b),
      );
    }
    // The saved mapping reads the same file again: nothing new.
    const mapa = (await admin.nav.getJson(`${amb.url}/extratos`))
      .json<{ data: { mapeamentos: Array<{ id: number; nome: string }> } }>()
      .data.mapeamentos.find((m) => m.nome === 'Banco da comunidade');
    assert.ok(mapa !== undefined);
    const de_novo = await importar(bytes, 'marco.csv', { mapeamentoId: String(mapa.id) });
    assert.deepEqual(
      { status: de_novo.status, novas: de_novo.corpo.data?.novas, repetidas: de_novo.corpo.data?.repetidas },
      { status: 200, novas: 0, repetidas: 3 },
    );
    // The review: one ambiguous credit to Bia (changed by hand), the other rejected; Caio's confirmed.
    const [a1, a2] = ambiguas;
    const conf = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, {
      linhas: [
        { id: a1?.id, usuarioid: bia.id },
        { id: a2?.id, usuarioid: null },
        { id: deCaio[0]?.id, usuarioid: caio.id },
      ],
    });
    assert.equal(conf.status, 200, conf.texto);
    assert.deepEqual(conf.json<{ data: unknown }>().data, { conciliadas: 2, rejeitadas: 1 });
    assert.equal((await saldo(admin, bia.id)).devido, 0);
    assert.equal((await saldo(admin, caio.id)).devido, 0);
    assert.equal((await saldo(admin, ana.id)).devido, 45.1);
    const depois = await extrato();
    const aberta = depois.pendentes.find((l) => l.id === a2?.id);
    assert.equal(aberta?.proposta, null, 'recusada, a linha continua listada sem proposta');
    // Dismissed with a reason; without one, 400.
    const semMotivo = await admin.nav.postJson(`${amb.url}/extratos/${a2?.id}/descartar`, { motivo: '' });
    assert.equal(semMotivo.status, 400);
    const descarte = await admin.nav.postJson(`${amb.url}/extratos/${a2?.id}/descartar`, {
      motivo: 'Transferência entre contas da associação',
    });
    assert.equal(descarte.status, 200, descarte.texto);
    const resolvida = (await extrato()).resolvidas.find((l) => l.id === a2?.id);
    assert.deepEqual(
      { estado: resolvida?.estado, motivo: resolvida?.motivo, mov: resolvida?.movimentacaoid },
      { estado: 'descartada', motivo: 'Transferência entre contas da associação', mov: null },
    );
  });

  test('arquivo ruim: mensagem clara e status certo, e nada escrito pela metade', async () => {
    const linhas = await contar('extratolinha');
    const casos: Array<[string | Buffer, string, Record<string, string>, number, RegExp]> = [
      [
        '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><TRNAMT>abc</STMTTRN>',
        'ruim.ofx',
        {},
        400,
        /OFX/,
      ],
      [
        ofx([
          { fitid: 'M1', data: '2026-03-20', valor: '10.00', memo: 'PIX' },
          { fitid: 'M2', data: '2026-13-40', valor: '12.00', memo: 'PIX' },
        ]),
        'data.ofx',
        {},
        400,
        /Transação 2: data/,
      ],
      [
        'Data;Historico;Valor\n20/03/2026;PIX;10,00\n21/03/2026;PIX;dez reais\n',
        'ruim.csv',
        { colunaData: 'Data', colunaValor: 'Valor', colunaDescricao: 'Historico' },
        400,
        /Linha 3: valor "dez reais"/,
      ],
      [
        'Data;Historico;Valor\n20/03/2026;PIX;10,00\n',
        'coluna.csv',
        { colunaData: 'Data', colunaValor: 'Quantia', colunaDescricao: 'Historico' },
        400,
        /coluna "Quantia"/,
      ],
      ['Data;Historico;Valor\n20/03/2026;PIX;10,00\n', 'semmapa.csv', {}, 400, /CSV/],
      [Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02]), 'extrato.pdf', {}, 415, /OFX ou CSV/],
      [Buffer.alloc(3 * 1024 * 1024, 0x41), 'grande.ofx', {}, 413, /2 MiB/],
    ];
    for (const [conteudo, nome, campos, status, mensagem] of casos) {
      const r = await importar(conteudo, nome, campos);
      assert.equal(r.status, status, `${nome}: ${JSON.stringify(r.corpo)}`);
      assert.match(r.corpo.error ?? '', /[a-zà-ú]/i);
      assert.match(`${r.corpo.error ?? ''} ${JSON.stringify(r.corpo.details ?? {})}`, mensagem, nome);
    }
    const semArquivo = await admin.nav.postJson(`${amb.url}/extratos`, {});
    assert.equal(semArquivo.status, 400);
    assert.deepEqual(semArquivo.json<{ details: Record<string, string> }>().details, {
      arquivo: 'Escolha o arquivo do extrato (OFX ou CSV)',
    });
    // A mapping half typed, to be saved without a name: every missing field is said at once, before the file is read.
    const meioMapa = await importar('Data;Historico;Valor\n20/03/2026;PIX;10,00\n', 'meio.csv', {
      colunaValor: 'Valor',
      separador: '|',
      salvarMapeamento: 'on',
    });
    assert.equal(meioMapa.status, 400);
    assert.deepEqual(meioMapa.corpo.details, {
      separador: 'Escolha ; (ponto e vírgula), , (vírgula) ou tab',
      colunaData: 'Diga o nome desta coluna no cabeçalho do CSV',
      colunaDescricao: 'Diga o nome desta coluna no cabeçalho do CSV',
      nomeMapeamento: 'Campo obrigatório',
    });
    assert.equal(await contar('extratolinha'), linhas, 'nenhuma linha de um arquivo recusado foi gravada');
    const decisaoRuim = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, { linhas: [{ id: 'x' }] });
    assert.equal(decisaoRuim.status, 400);
  });

  test('OFX hostil (o arquivo de 62 bytes que travava o leitor, e variantes longas): 400 em português, em menos de 1 s', async () => {
    const linhas = await contar('extratolinha');
    for (const n of [27, 10_000, 1_000_000]) {
      const arquivo = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><${'A'.repeat(n)}!`;
      if (n === 27) assert.equal(Buffer.byteLength(arquivo), 62);
      const inicio = performance.now();
      const r = await importar(arquivo, 'ataque.ofx');
      const ms = performance.now() - inicio;
      assert.equal(r.status, 400, JSON.stringify(r.corpo));
      assert.match(`${r.corpo.error ?? ''} ${JSON.stringify(r.corpo.details ?? {})}`, /O arquivo OFX está malformado/);
      assert.ok(ms < 1000, `${n} × A: ${ms.toFixed(0)} ms`);
    }
    // The server still answers at once: nothing was left running.
    const inicio = performance.now();
    assert.equal((await admin.nav.getJson(`${amb.url}/extratos`)).status, 200);
    assert.ok(performance.now() - inicio < 1000);
    assert.equal(await contar('extratolinha'), linhas);
  });

  /** The credits recorded for a person (movements of type "Pagamento recebido" from statements). */
  async function creditosDe(usuarioid: number): Promise<number[]> {
    return (
      await amb.banco
        .selectFrom('movimentacao')
        .select('valorCentavos')
        .where('usuarioid', '=', usuarioid)
        .where('chave', 'like', 'extrato:%')
        .orderBy('id')
        .execute()
    ).map((m) => m.valorCentavos);
  }

  async function linhasDe(data: string, valorCentavos: number) {
    return amb.banco
      .selectFrom('extratolinha')
      .select(['id', 'idBanco', 'estado'])
      .where('data', '=', data)
      .where('valorCentavos', '=', valorCentavos)
      .orderBy('id')
      .execute();
  }

  test('a mesma transação em OFX, depois em CSV, depois em CSV com outra coluna de descrição: um crédito só', async () => {
    const pessoa = await criarUsuario(amb.banco, { nome: 'Renata Repetida' });
    const csv =
      'Data;Lançamento;Detalhes;Nº documento;Valor\n' +
      '03/04/2026;Pix - Recebido;RENATA REPETIDA 123.456.789-00;123;27,30\n' +
      '03/04/2026;Tarifa;Pacote de serviços;900;-12,00\n';
    const arquivoOfx = ofx([
      { fitid: 'R-0403-1', data: '2026-04-03', valor: '27.30', memo: 'PIX RECEBIDO RENATA', documento: '000123' },
    ]);

    const r1 = await importar(arquivoOfx, 'abril.ofx');
    assert.equal(r1.status, 201, JSON.stringify(r1.corpo));
    assert.deepEqual({ novas: r1.corpo.data?.novas, repetidas: r1.corpo.data?.repetidas }, { novas: 1, repetidas: 0 });
    const r2 = await importar(csv, 'abril.csv', {
      colunaData: 'Data',
      colunaValor: 'Valor',
      colunaDescricao: 'Lançamento',
      colunaDocumento: 'Nº documento',
    });
    assert.equal(r2.status, 200, JSON.stringify(r2.corpo));
    assert.deepEqual({ novas: r2.corpo.data?.novas, repetidas: r2.corpo.data?.repetidas }, { novas: 0, repetidas: 1 });
    assert.match(r2.corpo.message ?? '', /0 créditos novos; 1 já importado antes/);
    const r3 = await importar(csv, 'abril-detalhado.csv', {
      colunaData: 'Data',
      colunaValor: 'Valor',
      colunaDescricao: 'Detalhes',
    });
    assert.deepEqual(
      { status: r3.status, novas: r3.corpo.data?.novas, repetidas: r3.corpo.data?.repetidas },
      { status: 200, novas: 0, repetidas: 1 },
    );
    const [linha, ...outras] = await linhasDe('2026-04-03', 2730);
    assert.deepEqual(outras, [], 'uma linha só para a transação');
    assert.equal(linha?.idBanco, 'ofx:0001:99887:R-0403-1');

    // Settled once; the three files again, after settling, change nothing.
    const conf = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, {
      linhas: [{ id: linha?.id, usuarioid: pessoa.id }],
    });
    assert.equal(conf.status, 200, conf.texto);
    for (const [arquivo, nome, campos] of [
      [arquivoOfx, 'a.ofx', {}],
      [
        csv,
        'b.csv',
        { colunaData: 'Data', colunaValor: 'Valor', colunaDescricao: 'Detalhes', colunaDocumento: 'Nº documento' },
      ],
      [csv, 'c.csv', { colunaData: 'Data', colunaValor: 'Valor', colunaDescricao: 'Lançamento' }],
    ] as const) {
      const r = await importar(arquivo, nome, campos);
      assert.deepEqual(
        { status: r.status, novas: r.corpo.data?.novas, repetidas: r.corpo.data?.repetidas },
        { status: 200, novas: 0, repetidas: 1 },
        nome,
      );
    }
    assert.deepEqual(await creditosDe(pessoa.id), [2730], 'um crédito só');
    assert.equal((await linhasDe('2026-04-03', 2730)).length, 1);
  });

  test('CSV sem número do documento primeiro, o OFX depois: a mesma transação; e a página diz quantas já estavam importadas', async () => {
    const csv = 'Data;Histórico;Valor\n04/04/2026;PIX RECEBIDO FULANO;33,33\n04/04/2026;PIX RECEBIDO CICLANO;33,33\n';
    const r1 = await importar(csv, 'sem-doc.csv', {
      colunaData: 'Data',
      colunaValor: 'Valor',
      colunaDescricao: 'Histórico',
    });
    assert.equal(r1.corpo.data?.novas, 2, JSON.stringify(r1.corpo));
    const arquivoOfx = ofx([
      { fitid: 'S1', data: '2026-04-04', valor: '33.33', memo: 'PIX FULANO', documento: '41' },
      { fitid: 'S2', data: '2026-04-04', valor: '33.33', memo: 'PIX CICLANO', documento: '42' },
    ]);
    const r2 = await importar(arquivoOfx, 'depois.ofx');
    assert.deepEqual(
      { status: r2.status, novas: r2.corpo.data?.novas, repetidas: r2.corpo.data?.repetidas },
      { status: 200, novas: 0, repetidas: 2 },
    );
    assert.equal((await linhasDe('2026-04-04', 3333)).length, 2);
    // The HTML form: the notice on the page after the redirect says how many were imported before.
    const f = new FormData();
    f.append('_csrf', await csrfDe(amb, admin.nav));
    f.append('arquivo', new Blob([Buffer.from(arquivoOfx, 'latin1')]), 'de-novo.ofx');
    const sessao = `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}`;
    const r = await fetch(`${amb.url}/extratos`, {
      method: 'POST',
      body: f,
      redirect: 'manual',
      headers: { cookie: sessao },
    });
    assert.equal(r.status, 303, await r.text());
    const aviso = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const pagina = await fetch(`${amb.url}${r.headers.get('location') ?? ''}`, {
      headers: { cookie: `${sessao}; ${aviso}` },
    });
    assert.match(await pagina.text(), /0 créditos novos; 2 já importados antes/);
  });

  test('duas transações diferentes no mesmo dia e com o mesmo valor: dois créditos, em OFX e em CSV', async () => {
    const pessoa = await criarUsuario(amb.banco, { nome: 'Dora Dupla' });
    const r1 = await importar(
      ofx([
        { fitid: 'G1', data: '2026-04-05', valor: '50.00', memo: 'PIX DORA', documento: '501' },
        { fitid: 'G2', data: '2026-04-05', valor: '50.00', memo: 'PIX DORA', documento: '502' },
      ]),
      'g.ofx',
    );
    assert.equal(r1.corpo.data?.novas, 2, JSON.stringify(r1.corpo));
    // The same bank's CSV with both, and a third credit of the same day and amount (another document number).
    const csv =
      'Data;Histórico;Documento;Valor\n05/04/2026;PIX DORA;501;50,00\n05/04/2026;PIX DORA;502;50,00\n05/04/2026;PIX DORA;503;50,00\n';
    const r2 = await importar(csv, 'g.csv', {
      colunaData: 'Data',
      colunaValor: 'Valor',
      colunaDescricao: 'Histórico',
      colunaDocumento: 'Documento',
    });
    assert.deepEqual({ novas: r2.corpo.data?.novas, repetidas: r2.corpo.data?.repetidas }, { novas: 1, repetidas: 2 });
    // An OFX of the same account with another FITID but the same document number is another transaction.
    const r3 = await importar(
      ofx([{ fitid: 'G4', data: '2026-04-05', valor: '50.00', memo: 'PIX DORA', documento: '501' }]),
      'g2.ofx',
    );
    assert.deepEqual({ novas: r3.corpo.data?.novas, repetidas: r3.corpo.data?.repetidas }, { novas: 1, repetidas: 0 });
    const linhas = await linhasDe('2026-04-05', 5000);
    assert.equal(linhas.length, 4);
    const conf = await admin.nav.postJson(`${amb.url}/extratos/conciliar`, {
      linhas: linhas.map((l) => ({ id: l.id, usuarioid: pessoa.id })),
    });
    assert.equal(conf.status, 200, conf.texto);
    assert.deepEqual(await creditosDe(pessoa.id), [5000, 5000, 5000, 5000]);
  });

  test('duas importações ao mesmo tempo (OFX e CSV da mesma transação): uma linha, um crédito', async () => {
    for (let rodada = 0; rodada < 4; rodada++) {
      const dia = `2026-04-${String(10 + rodada).padStart(2, '0')}`;
      const arquivoOfx = ofx([
        { fitid: `C${rodada}`, data: dia, valor: '61.20', memo: 'PIX', documento: `7${rodada}` },
      ]);
      const csv = `Data;Histórico;Documento;Valor\n${dia.split('-').reverse().join('/')};PIX RECEBIDO;7${rodada};61,20\n`;
      const campos = {
        colunaData: 'Data',
        colunaValor: 'Valor',
        colunaDescricao: 'Histórico',
        colunaDocumento: 'Documento',
      };
      const rs = await Promise.all([
        importar(arquivoOfx, 'x.ofx'),
        importar(csv, 'x.csv', campos),
        importar(arquivoOfx, 'y.ofx'),
        importar(csv, 'y.csv', campos),
      ]);
      for (const r of rs) assert.ok(r.status === 200 || r.status === 201, JSON.stringify(r.corpo));
      assert.equal(
        rs.reduce((t, r) => t + (r.corpo.data?.novas ?? 0), 0),
        1,
        `rodada ${rodada}: ${JSON.stringify(rs.map((r) => r.corpo.data))}`,
      );
      assert.equal((await linhasDe(dia, 6120)).length, 1);
    }
  });

  test('só a coordenação importa e confirma; cada pessoa vê só o próprio saldo e o próprio Pix', async () => {
    await cicloComPedido(outro.id ?? 0, 1500);
    const proprio = await saldo(outro);
    assert.equal(proprio.usuarioid, outro.id);
    assert.ok(proprio.pix !== null);
    const alheio = await outro.nav.getJson(`${amb.url}/saldo?usuarioid=${consumidora.id}`);
    assert.equal(alheio.status, 403);
    assert.doesNotMatch(alheio.texto, /CST/);
    for (const caminho of ['/extratos', '/cobrancas'])
      assert.equal((await outro.nav.getJson(`${amb.url}${caminho}`)).status, 403, caminho);
    const linhas = await contar('extratolinha');
    const r = await importar(
      ofx([{ fitid: 'X1', data: '2026-03-20', valor: '15.38', memo: 'PIX' }]),
      'x.ofx',
      {},
      outro,
    );
    assert.equal(r.status, 403);
    assert.equal(await contar('extratolinha'), linhas);
    assert.equal((await outro.nav.postJson(`${amb.url}/extratos/conciliar`, { linhas: [] })).status, 403);
    // The coordination's list has the person, with the same amount and txid.
    const lista = (await admin.nav.getJson(`${amb.url}/cobrancas`)).json<{ data: { itens: CobrancaJson[] } }>().data
      .itens;
    const item = lista.find((c) => c.usuarioid === outro.id);
    assert.deepEqual({ devido: item?.devido, txid: item?.txid }, { devido: proprio.devido, txid: proprio.txid });
  });
});

describe('Pix no recibo por e-mail', () => {
  let amb: AmbienteDeTeste;
  let caixa: CaixaDeTeste;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    amb = await iniciarAmbiente({
      env: {
        SMTP_URL: caixa.url,
        AVISOS_INTERVALO_S: '3600',
        PIX_CHAVE: '+5516999998888',
        PIX_NOME: 'Feira do Bairro',
        PIX_CIDADE: 'Araraquara',
      },
    });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });

  test('o recibo traz o que pagar, linha a linha, e o Pix copia e cola (sem imagem do Pix)', async () => {
    const admin = await entrarComo(amb, ['admin'], 'Coordenação');
    const pessoa = await entrarComo(amb, ['consumidor'], 'Rita Recibo');
    const u = pessoa.id ?? 0;
    // A debt of R$ 7,00 carried from before, then an order of R$ 50,00 confirmed by the coordination.
    const iso = new Date().toISOString();
    await dividaAnterior(amb.banco, u, 700, { data: '2026-02-01', descricao: 'Ajuste anterior' });
    const cesta = await criarCesta(amb.banco);
    // Composed: a basket is sold (and an order confirmed after the window takes its stock) up to its composition.
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const ponto = await criarPonto(amb.banco);
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({ cicloid: ciclo.id, usuarioid: u, pontoEntregaId: ponto.id, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco
      .insertInto('pedidoproduto')
      .values({
        pedidoid: pedido.id,
        cicloCestaId: ciclo.cicloCestas[0] ?? 0,
        quantidadeMilesimos: 1000,
        valorCentavos: 5000,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const r = await admin.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId: pedido.id });
    assert.equal(r.status, 200, r.texto);
    await amb.servicos.correio.enviarPendentes();
    const [recibo] = await caixa.esperar(1);
    assert.ok(recibo);
    const txid = `CST${u}C${ciclo.id}`;
    assert.ok(
      recibo.texto.includes(
        'Como pagar por Pix:\nEste Pix paga tudo o que você deve hoje: R$ 57,00, o saldo, e não um pedido só.\n- Saldo devedor',
      ),
      recibo.texto,
    );
    assert.ok(recibo.html.includes('Este Pix paga tudo o que você deve hoje: R$ 57,00, o saldo, e não um pedido só.'));
    assert.ok(recibo.texto.includes('Total a pagar: R$ 57,00'), recibo.texto);
    const codigo = /Pix copia e cola[^\n]*\n([^\n]+)/.exec(recibo.texto)?.[1] ?? '';
    assert.match(codigo, /^000201/);
    assert.ok(
      codigo.includes('0114+5516999998888') &&
        codigo.includes('540557.00') &&
        codigo.includes(`05${String(txid.length).padStart(2, '0')}${txid}`),
      codigo,
    );
    assert.ok(recibo.html.includes(codigo), 'o HTML traz o mesmo código');
    // No image of the Pix: the code pastes into any bank's app. The one image is the pickup QR (issue 38).
    assert.doesNotMatch(recibo.html, /<svg/, 'nenhum SVG no e-mail');
    assert.deepEqual(
      [...recibo.html.matchAll(/<img [^>]*alt="([^"]*)"/g)].map((m) => m[1]),
      ['QR code do seu pedido, para mostrar na retirada'],
    );
  });
});
