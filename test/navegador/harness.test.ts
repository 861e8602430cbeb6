import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { abrirChromium, abrirContexto, conferirPagina, entrarNoNavegador, semChromium } from '../helpers/chromium.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const pular = semChromium();
let amb: AmbienteDeTeste;
let navegador: Browser;

before(async () => {
  if (pular !== false) return;
  amb = await iniciarAmbiente();
  navegador = await abrirChromium();
});
after(async () => {
  if (pular !== false) return;
  await navegador.close();
  await amb.fechar();
});

test('o login pelo provedor no navegador leva ao cadastro de quem não tem conta', { skip: pular }, async () => {
  const ctx = await abrirContexto(navegador);
  const pagina = await ctx.novaPagina();
  await entrarNoNavegador(pagina, `${amb.url}/`, amb.url, { email: 'nova.pessoa@exemplo.org', nome: 'Nova Pessoa' });
  assert.match(new URL(pagina.url()).pathname, /^\/usuarionovo/);
  await conferirPagina(pagina, ctx, 'harness-usuarionovo');
  await ctx.fechar();
});
