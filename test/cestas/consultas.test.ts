import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope {
  success: boolean;
  error?: string;
  details?: Record<string, string>;
  data?: { itens?: unknown[]; pagina?: number; porPagina?: number };
}

/** The query strings as the routes declare them (src/http/consultas.ts, docs/http.md). */
describe('parâmetros da consulta: declarados, validados, e os desconhecidos ignorados', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin']);
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;

  test('um parâmetro que a rota lê, com tipo ou faixa errados: 400 com a mensagem do campo, em português', async () => {
    const casos: ReadonlyArray<readonly [string, string, string]> = [
      ['/oferta-index?cicloid=abc', 'cicloid', 'Deve ser um número inteiro'],
      ['/saldo?usuarioid=0', 'usuarioid', 'Deve ser no mínimo 1'],
      ['/categoria-index?porPagina=201', 'porPagina', 'Deve ser no máximo 200'],
      ['/mensagens?estado=lida', 'estado', 'Valor inválido: use pendente, enviando, enviada, falhou'],
      ['/movimentacaotodos?de=2026-02-30', 'de', 'Data inválida: use AAAA-MM-DD'],
    ];
    for (const [caminho, campo, mensagem] of casos) {
      const r = await admin.nav.getJson(url(caminho));
      assert.equal(r.status, 400, `${caminho}: ${r.texto}`);
      const corpo = r.json<Envelope>();
      assert.equal(
        corpo.error,
        campo === 'de' ? 'Verifique os campos destacados' : 'Parâmetro inválido no endereço',
        caminho,
      );
      assert.equal(corpo.details?.[campo], mensagem, caminho);
    }
  });

  test('um parâmetro que nenhuma rota lê (um link com utm_source) e um campo em branco de um formulário GET: a página de sempre', async () => {
    const r = await admin.nav.getJson(url('/categoria-index?utm_source=boletim&busca=&porPagina=5&pagina=&x[0]=1'));
    assert.equal(r.status, 200, r.texto);
    assert.equal(r.json<Envelope>().data?.porPagina, 5);
    const auditoria = await admin.nav.getJson(url('/auditoria?entidade=&usuarioid=&fbclid=abc'));
    assert.equal(auditoria.status, 200, auditoria.texto);
  });
});
