/**
 * The BR Codes the service generates, read back by a decoder written here, independently of the
 * library that builds them: EMV fields (id, two-digit length, value), nested templates 26 and 62,
 * and the CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) over everything up to "6304".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { carregarConfig, ErroConfig } from '../../src/config.ts';
import { cnpjValido, cpfValido, lerChavePix, textoDoBrCode, type RecebedorPix } from '../../src/pix-chave.ts';
import { brCode, pixDaCobranca, TAMANHO_MAXIMO_TXID, txidDe, txidNoTexto } from '../../src/domain/pix.ts';
import { semente } from '../helpers/semente.ts';

function crc16(texto: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(texto, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** EMV TLV fields, in order; throws on a length that runs past the end. */
function campos(texto: string): Array<[string, string]> {
  const saida: Array<[string, string]> = [];
  let i = 0;
  while (i < texto.length) {
    const id = texto.slice(i, i + 2);
    const tamanho = Number(texto.slice(i + 2, i + 4));
    assert.match(texto.slice(i + 2, i + 4), /^\d{2}$/, `tamanho do campo ${id}`);
    const valor = texto.slice(i + 4, i + 4 + tamanho);
    assert.equal(valor.length, tamanho, `o campo ${id} cabe no texto`);
    saida.push([id, valor]);
    i += 4 + tamanho;
  }
  return saida;
}

interface BrCodeLido {
  readonly crcValido: boolean;
  readonly campos: ReadonlyMap<string, string>;
  readonly gui: string;
  readonly chave: string;
  readonly valor: string | undefined;
  readonly nome: string;
  readonly cidade: string;
  readonly txid: string;
}

function decodificar(codigo: string): BrCodeLido {
  assert.ok(codigo.length <= 512, 'um BR Code tem no máximo 512 caracteres');
  const todos = campos(codigo);
  const mapa = new Map(todos);
  assert.equal(todos[0]?.[0], '00', 'começa pelo indicador de formato');
  assert.equal(todos.at(-1)?.[0], '63', 'termina pelo CRC');
  const conta = new Map(campos(mapa.get('26') ?? ''));
  const adicionais = new Map(campos(mapa.get('62') ?? ''));
  return {
    crcValido: crc16(codigo.slice(0, -4)) === codigo.slice(-4),
    campos: mapa,
    gui: conta.get('00') ?? '',
    chave: conta.get('01') ?? '',
    valor: mapa.get('54'),
    nome: mapa.get('59') ?? '',
    cidade: mapa.get('60') ?? '',
    txid: adicionais.get('05') ?? '',
  };
}

describe('BR Code lido por um decodificador independente', () => {
  test('o exemplo do manual do Banco Central confere: CRC, chave, nome, cidade e txid', () => {
    // Manual de Padrões para Iniciação do Pix (Banco Central do Brasil), the static QR example with
    // a random key: the payload libraries and validators cite as the reference, CRC 1D3D.
    const exemplo =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    const lido = decodificar(exemplo);
    assert.equal(lido.crcValido, true);
    assert.equal(lido.gui, 'br.gov.bcb.pix');
    assert.equal(lido.chave, '123e4567-e12b-12d1-a456-426655440000');
    assert.equal(lido.nome, 'Fulano de Tal');
    assert.equal(lido.cidade, 'BRASILIA');
    assert.equal(lido.txid, '***');
    assert.equal(lido.valor, undefined);
    assert.equal(lido.campos.get('53'), '986');
    assert.equal(lido.campos.get('58'), 'BR');
    // One character changed anywhere breaks the CRC.
    assert.equal(decodificar(exemplo.replace('Fulano', 'Fulana')).crcValido, false);
  });

  const recebedores: RecebedorPix[] = [
    { chave: '52998224725', tipo: 'cpf', nome: 'Associação Agroecológica', cidade: 'São Carlos' },
    { chave: '11222333000181', tipo: 'cnpj', nome: 'Cooperativa Raízes', cidade: 'Ribeirão Preto' },
    {
      chave: 'financeiro@cestas-da-comunidade.org.br',
      tipo: 'email',
      nome: 'Comunidade que Sustenta',
      cidade: 'Botucatu',
    },
    { chave: '+5516999998888', tipo: 'telefone', nome: 'Cestaria', cidade: 'Araraquara' },
    { chave: '123e4567-e12b-12d1-a456-426655440000', tipo: 'aleatoria', nome: 'Feira do Bairro', cidade: 'Brasília' },
  ];

  test('o código gerado traz exatamente a chave, o nome, a cidade, o valor e o txid, com CRC válido', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...recebedores),
        fc.integer({ min: 1, max: 99_999_999_99 }),
        fc.integer({ min: 1, max: 2_147_483_647 }),
        fc.integer({ min: 0, max: 2_147_483_647 }),
        (r, centavos, usuarioid, cicloid) => {
          const txid = txidDe(usuarioid, cicloid);
          const lido = decodificar(brCode(r, centavos, txid));
          assert.equal(lido.crcValido, true);
          assert.equal(lido.gui, 'br.gov.bcb.pix');
          assert.equal(lido.chave, r.chave);
          assert.equal(lido.nome, textoDoBrCode(r.nome));
          assert.equal(lido.cidade, textoDoBrCode(r.cidade));
          assert.equal(lido.valor, `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`);
          assert.equal(lido.txid, txid);
          assert.ok(txid.length <= TAMANHO_MAXIMO_TXID && /^[A-Za-z0-9]+$/.test(txid), `txid ${txid}`);
          assert.ok(lido.nome.length <= 25 && lido.cidade.length <= 15);
          assert.deepEqual(txidNoTexto(`PIX RECEBIDO ${txid} FULANO`), { txid, usuarioid, cicloid });
        },
      ),
      { seed: semente(), numRuns: 300 },
    );
  });

  test('um txid que termina em 6304, a marca do CRC, ainda tem o CRC certo (ciclos 6304, 16304, …)', () => {
    for (const [usuarioid, cicloid] of [
      [1, 6304],
      [1, 1_397_996_304],
      [6304, 16_304],
    ] as const) {
      const txid = txidDe(usuarioid, cicloid);
      assert.ok(txid.endsWith('6304'), txid);
      const codigo = brCode(recebedores[0] as RecebedorPix, 1, txid);
      const lido = decodificar(codigo);
      assert.equal(lido.crcValido, true, codigo);
      assert.equal(lido.txid, txid);
      assert.equal(lido.valor, '0.01');
    }
  });

  test('o mesmo valor devido dá sempre o mesmo código; o QR é SVG do mesmo texto', async () => {
    const r = recebedores[0] as RecebedorPix;
    const a = await pixDaCobranca({ devidoCentavos: 12345, txid: txidDe(7, 3) }, r);
    const b = await pixDaCobranca({ devidoCentavos: 12345, txid: txidDe(7, 3) }, r);
    assert.ok(a !== null && b !== null);
    assert.equal(a.copiaECola, b.copiaECola);
    assert.equal(decodificar(a.copiaECola).valor, '123.45');
    assert.match(a.qrSvg, /^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    assert.equal(await pixDaCobranca({ devidoCentavos: 0, txid: 'CST7C3' }, r), null, 'nada devido, nada a pagar');
    assert.equal(await pixDaCobranca({ devidoCentavos: -500, txid: 'CST7C3' }, r), null, 'um crédito não gera Pix');
    assert.equal(await pixDaCobranca({ devidoCentavos: 500, txid: 'CST7C3' }, null), null, 'sem recebedor, sem Pix');
  });

  test('um txid só é reconhecido inteiro, não dentro de outra palavra', () => {
    assert.equal(txidNoTexto('TRANSF XCST12C5'), null);
    assert.equal(txidNoTexto('CST12C5X'), null);
    assert.deepEqual(txidNoTexto('pix cst12c5 recebido'), { txid: 'CST12C5', usuarioid: 12, cicloid: 5 });
  });
});

describe('chave Pix e configuração', () => {
  test('os cinco tipos de chave, na forma do DICT', () => {
    assert.deepEqual(lerChavePix('529.982.247-25'), { chave: '52998224725', tipo: 'cpf' });
    assert.deepEqual(lerChavePix('11.222.333/0001-81'), { chave: '11222333000181', tipo: 'cnpj' });
    assert.deepEqual(lerChavePix('Financeiro@Exemplo.org'), { chave: 'financeiro@exemplo.org', tipo: 'email' });
    assert.deepEqual(lerChavePix('+55 (16) 99999-8888'), { chave: '+5516999998888', tipo: 'telefone' });
    assert.deepEqual(lerChavePix('123E4567-E12B-12D1-A456-426655440000'), {
      chave: '123e4567-e12b-12d1-a456-426655440000',
      tipo: 'aleatoria',
    });
    for (const ruim of [
      '529.982.247-24',
      '111.111.111-11',
      '11.222.333/0001-82',
      '16999998888x',
      'chave qualquer',
      '5516999998888',
    ]) {
      assert.equal(lerChavePix(ruim), null, ruim);
    }
    assert.equal(cpfValido('52998224725'), true);
    assert.equal(cnpjValido('11222333000181'), true);
  });

  const base = { NODE_ENV: 'test', DATABASE_URL: 'sqlite::memory:' };
  test('PIX_CHAVE, PIX_NOME e PIX_CIDADE são conferidas ao iniciar', () => {
    assert.equal(carregarConfig(base).pix, null, 'sem as três, não há Pix');
    assert.deepEqual(
      carregarConfig({
        ...base,
        PIX_CHAVE: '529.982.247-25',
        PIX_NOME: 'Associação Agroecológica',
        PIX_CIDADE: 'São Carlos',
      }).pix,
      {
        chave: '52998224725',
        tipo: 'cpf',
        nome: 'Associação Agroecológica',
        cidade: 'São Carlos',
      },
    );
    assert.throws(
      () => carregarConfig({ ...base, PIX_CHAVE: '529.982.247-25' }),
      (e: unknown) => e instanceof ErroConfig && /defina as três/.test(e.message),
    );
    assert.throws(
      () => carregarConfig({ ...base, PIX_CHAVE: '529.982.247-24', PIX_NOME: 'A', PIX_CIDADE: 'B' }),
      (e: unknown) => e instanceof ErroConfig && /^PIX_CHAVE/.test(e.message),
    );
    assert.throws(
      () =>
        carregarConfig({
          ...base,
          PIX_CHAVE: 'a@b.org',
          PIX_NOME: 'Associação dos Produtores Agroecológicos',
          PIX_CIDADE: 'B',
        }),
      (e: unknown) => e instanceof ErroConfig && /^PIX_NOME deve ter no máximo 25/.test(e.message),
    );
    assert.throws(
      () => carregarConfig({ ...base, PIX_CHAVE: 'a@b.org', PIX_NOME: 'A', PIX_CIDADE: 'São José do Rio Preto' }),
      (e: unknown) => e instanceof ErroConfig && /^PIX_CIDADE deve ter no máximo 15/.test(e.message),
    );
  });
});
