/**
 * The OFX reader (src/cestas/ofx.ts) on both forms of the format, and on hostile input: every
 * file is read or refused with the domain's refusal, in time linear in its size.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { lerExtrato, lerOfx, textoDoExtrato } from '../../src/cestas/leitura-extrato.ts';
import { lerDocumentoOfx, OfxMalformado, valorOfx, filhoOfx } from '../../src/cestas/ofx.ts';
import { Invalido } from '../../src/domain/erros.ts';
import { ErroHttp } from '../../src/http/erros.ts';
import { semente } from '../helpers/semente.ts';

const SGML = [
  'OFXHEADER:100',
  'DATA:OFXSGML',
  'VERSION:102',
  'SECURITY:NONE',
  'ENCODING:USASCII',
  'CHARSET:1252',
  'COMPRESSION:NONE',
  'OLDFILEUID:NONE',
  'NEWFILEUID:NONE',
  '',
  '<OFX>',
  '<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261120<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>',
  '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>',
  '<STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0001<ACCTID>99887<ACCTTYPE>CHECKING</BANKACCTFROM>',
  '<BANKTRANLIST><DTSTART>20261101<DTEND>20261130',
  '<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261105120000[-3:BRT]<TRNAMT>45.10<FITID>A1<CHECKNUM>000123<NAME>MARIA JOSE<MEMO>PIX RECEBIDO</STMTTRN>',
  '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261106<TRNAMT>-9.90<FITID>A2<REFNUM>77<MEMO>TARIFA &amp; IOF</STMTTRN>',
  '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
].join('\n');

const XML = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX>
  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20261120</DTSERVER><LANGUAGE>POR</LANGUAGE></SONRS></SIGNONMSGSRSV1>
  <CREDITCARDMSGSRSV1>
    <CCSTMTTRNRS><TRNUID>1</TRNUID>
      <CCSTMTRS><CURDEF>BRL</CURDEF><CCACCTFROM><ACCTID>5555</ACCTID></CCACCTFROM>
        <BANKTRANLIST>
          <STMTTRN>
            <TRNTYPE>CREDIT</TRNTYPE>
            <DTPOSTED>20261107000000</DTPOSTED>
            <TRNAMT>1234.56</TRNAMT>
            <FITID>X-9</FITID>
            <NAME>João &lt;Feira&gt;</NAME>
            <MEMO></MEMO>
          </STMTTRN>
          <STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20261108</DTPOSTED><TRNAMT>0.05</TRNAMT><FITID>X-10</FITID><MEMO/></STMTTRN>
        </BANKTRANLIST>
      </CCSTMTRS>
    </CCSTMTTRNRS>
  </CREDITCARDMSGSRSV1>
</OFX>`;

function recusado(f: () => unknown, codigo = 'EXTRATO_INVALIDO'): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Invalido, `esperava Invalido, veio ${String(e)}`);
    assert.equal(e.codigo, codigo);
    return e.message;
  }
  assert.fail('o arquivo devia ser recusado');
}

describe('leitor de OFX', () => {
  test('SGML (versão 1): folhas sem fechamento, cabeçalho, conta, CHECKNUM e REFNUM, entidades', () => {
    const doc = lerDocumentoOfx(SGML);
    assert.equal(doc.cabecalho.DATA, 'OFXSGML');
    assert.equal(doc.cabecalho.CHARSET, '1252');
    assert.equal(
      valorOfx(filhoOfx(filhoOfx(filhoOfx(doc.raiz, 'SIGNONMSGSRSV1'), 'SONRS'), 'STATUS'), 'SEVERITY'),
      'INFO',
    );
    assert.deepEqual(lerOfx(SGML), [
      {
        data: '2026-11-05',
        valorCentavos: 4510,
        descricao: 'MARIA JOSE · PIX RECEBIDO',
        pagador: 'MARIA JOSE',
        conta: '0001:99887',
        fitid: 'A1',
        documentos: ['000123'],
      },
      {
        data: '2026-11-06',
        valorCentavos: -990,
        descricao: 'TARIFA & IOF',
        pagador: null,
        conta: '0001:99887',
        fitid: 'A2',
        documentos: ['77'],
      },
    ]);
  });

  test('XML (versão 2): tudo fechado, elementos vazios, cartão de crédito; o mesmo extrato com CRLF', () => {
    const esperado = [
      {
        data: '2026-11-07',
        valorCentavos: 123456,
        descricao: 'João <Feira>',
        pagador: 'João <Feira>',
        conta: ':5555',
        fitid: 'X-9',
        documentos: [],
      },
      {
        data: '2026-11-08',
        valorCentavos: 5,
        descricao: 'CREDIT',
        pagador: null,
        conta: ':5555',
        fitid: 'X-10',
        documentos: [],
      },
    ];
    assert.deepEqual(lerOfx(XML), esperado);
    assert.deepEqual(lerOfx(XML.replaceAll('\n', '\r\n')), esperado);
    assert.deepEqual(lerOfx(SGML.replaceAll('\n', '\r\n')), lerOfx(SGML));
  });

  test('SGML com fechamentos nas folhas (mistura), marcas em minúsculas e uma folha vazia sem fechamento', () => {
    const misto = SGML.replace('<TRNAMT>45.10', '<TRNAMT>45.10</TRNAMT>')
      .replace('<FITID>A1', '<fitid>A1</fitid>')
      .replace('<NAME>MARIA JOSE', '<NAME>');
    const [l] = lerOfx(misto);
    assert.deepEqual(
      {
        valor: l?.valorCentavos,
        fitid: l?.fitid,
        pagador: l?.pagador,
        descricao: l?.descricao,
        documentos: l?.documentos,
      },
      { valor: 4510, fitid: 'A1', pagador: null, descricao: 'PIX RECEBIDO', documentos: ['000123'] },
    );
  });

  test('Latin-1 (CHARSET:1252) e UTF-8 dão o mesmo texto', () => {
    const texto = SGML.replace('MARIA JOSE<MEMO>', 'MARIA JOSÉ AÇAÍ<MEMO>');
    const latin1 = lerExtrato(Buffer.from(texto, 'latin1'), null);
    assert.equal(latin1[0]?.pagador, 'MARIA JOSÉ AÇAÍ');
    assert.deepEqual(lerExtrato(Buffer.from(texto.replace('CHARSET:1252', 'CHARSET:NONE'), 'utf8'), null), latin1);
    assert.equal(textoDoExtrato(Buffer.from(texto, 'latin1')), texto);
  });

  test('malformado: recusa clara, sem travar', () => {
    for (const [arquivo, motivo] of [
      ['<OFX><BANKMSGSRSV1><STMTTRNRS>', /aberto/],
      ['<OFX></STMTTRN></OFX>', /não foi aberto/],
      ['<OFX><STMTTRN>x</OFX', /não foi fechada/],
      ['<OFX><A B="1"></A></OFX>', /Marca inválida/],
      ['<OFX><A>1</A>solto<B>2</OFX>', /Texto fora/],
      [`<OFX>${'<A>'.repeat(40)}`, /fundo demais/],
      ['<OFX><!-- sem fim', /comentário/],
    ] as const) {
      assert.throws(
        () => lerDocumentoOfx(arquivo),
        (e: unknown) => e instanceof OfxMalformado && motivo.test(e.message),
        arquivo,
      );
      assert.match(
        recusado(() => lerOfx(arquivo)),
        /OFX está malformado/,
      );
    }
    assert.match(
      recusado(() => lerOfx('<OFX><SIGNONMSGSRSV1></SIGNONMSGSRSV1></OFX>')),
      /não tem transações/,
    );
    assert.match(
      recusado(() => lerOfx(SGML.replace('<TRNAMT>45.10', '<TRNAMT>abc'))),
      /Transação 1: valor "abc"/,
    );
  });

  // A hang guard, not a measurement (the bench measures): catastrophic backtracking on these
  // inputs takes minutes to hours, a linear reader milliseconds, so the test's own timeout tells
  // them apart without a timing assertion that a loaded machine could fail.
  test(
    'o arquivo de 62 bytes que travava o ofx-js, e as variantes longas, são recusados sem travar',
    { timeout: 30_000 },
    () => {
      for (const n of [27, 40, 10_000, 2 * 1024 * 1024 - 40]) {
        const arquivo = `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><${'A'.repeat(n)}!`;
        if (n === 27) assert.equal(Buffer.byteLength(arquivo), 62);
        assert.match(
          recusado(() => lerExtrato(Buffer.from(arquivo), null)),
          /malformado/,
        );
      }
      // The other shapes of the old regular expressions: long names with dots, whitespace runs, unclosed tags.
      for (const arquivo of [
        `<OFX><${'A.'.repeat(200_000)}>x`,
        `<OFX>${' '.repeat(500_000)}<`,
        `<OFX>${'<A>x'.repeat(200_000)}`,
        `<OFX>${'<A>'.repeat(31)}${'</B>'.repeat(100_000)}`,
      ]) {
        assert.match(
          recusado(() => lerExtrato(Buffer.from(arquivo), null)),
          /./,
        );
      }
    },
  );

  test(
    'propriedade: qualquer entrada, mesmo hostil, é lida ou recusada pelo domínio, sem travar',
    { timeout: 60_000 },
    () => {
      const pedaco = fc.oneof(
        fc.constantFrom(
          '<',
          '>',
          '</',
          '/>',
          '<!--',
          '-->',
          '<?',
          '?>',
          '&amp;',
          '&#',
          ';',
          '!',
          '.',
          ' ',
          '\r\n',
          '\n',
          'A',
          '0',
          'é',
        ),
        fc.constantFrom(
          '<OFX>',
          '</OFX>',
          '<STMTTRN>',
          '</STMTTRN>',
          '<BANKMSGSRSV1>',
          '<STMTTRNRS>',
          '<STMTRS>',
          '<BANKTRANLIST>',
          '</BANKTRANLIST>',
          '<TRNAMT>',
          '<DTPOSTED>',
          '<FITID>',
          '<CHECKNUM>',
          '20261105',
          '10.50',
          '-3,00',
        ),
        fc.string({ maxLength: 8 }),
        fc.nat({ max: 3000 }).map((n) => 'A'.repeat(n)),
      );
      const arquivo = fc
        .tuple(
          fc.constantFrom('', 'OFXHEADER:100\nDATA:OFXSGML\n\n', '<?xml version="1.0"?>'),
          fc.array(pedaco, { maxLength: 60 }),
        )
        .map(([cabecalho, partes]) => `${cabecalho}<OFX>${partes.join('')}`);
      fc.assert(
        fc.property(arquivo, (texto) => {
          try {
            const linhas = lerExtrato(Buffer.from(texto, 'utf8'), null);
            assert.ok(linhas.length > 0);
            for (const l of linhas)
              assert.ok(Number.isSafeInteger(l.valorCentavos) && /^\d{4}-\d{2}-\d{2}$/.test(l.data));
          } catch (e) {
            assert.ok(
              e instanceof Invalido || (e instanceof ErroHttp && e.status === 415),
              `erro inesperado: ${String(e)}`,
            );
          }
        }),
        { seed: semente(), numRuns: 2000 },
      );
    },
  );
});
