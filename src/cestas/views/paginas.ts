import { pode, type Acao, type AcaoDoCiclo, type Ator } from '../../domain/acesso.ts';
import { nomeDoMomento } from '../../domain/ciclos/calendario.ts';
import type { CicloNoPainel } from '../../domain/ciclos/painel.ts';
import type { Andamento, Pendencias } from '../../domain/andamento.ts';
import type { Saldo } from '../../domain/financeiro.ts';
import { passoDoCiclo } from '../../domain/proximos-passos.ts';
import type { DiaDeEntrega } from '../../domain/tempo.ts';
import { NOMES_PERFIS, PERFIS_AUTOCADASTRO, type Perfil } from '../../domain/perfis.ts';
import type { Identidade, Usuario } from '../../domain/usuarios.ts';
import { html, type Html } from '../../http/html.ts';
import { caixaDeMarcar, campoAreaTexto, campoCsrf, campoTexto, resumoDeErros } from './layout.ts';
import { dataBr, reais } from '../../formatos.ts';

export function paginaErro(
  mensagem: string,
  opcoes: { codigoRequisicao?: string; detalhes?: Readonly<Record<string, unknown>> },
): Html {
  const itens = Object.entries(opcoes.detalhes ?? {}).filter(([, v]) => typeof v === 'string');
  return html`<div class="alerta" role="alert"><p>${mensagem}</p>
  ${itens.length === 0 ? '' : html`<ul>${itens.map(([k, v]) => html`<li><strong>${k}</strong>: ${String(v)}</li>`)}</ul>`}
  </div>
  ${opcoes.codigoRequisicao === undefined ? '' : html`<p><small>Código da requisição: <code>${opcoes.codigoRequisicao}</code></small></p>`}
  <p><a href="/">Voltar ao início</a></p>`;
}

export function paginaErroLogin(mensagem: string): Html {
  return html`<div class="alerta" role="alert"><p>${mensagem}</p></div>
  <p><a class="botao" href="/">Entrar novamente</a></p>`;
}

export function paginaSaiu(): Html {
  return html`<p>Você saiu da Cestaria neste aparelho.</p><p><a class="botao" href="/">Entrar novamente</a></p>`;
}

/** Asked when a logout link came from another site: only this page's own form ends the session. */
export function paginaConfirmarSaida(csrf: string | null): Html {
  return html`<p>Deseja sair da Cestaria neste aparelho?</p>
  <form method="post" action="/logout">
    ${campoCsrf(csrf)}
    <button type="submit" class="botao">Sair</button>
  </form>
  <p><a href="/">Continuar na Cestaria</a></p>`;
}

export interface CicloDoPainel extends CicloNoPainel {
  readonly acoes: readonly AcaoDoCiclo[];
  readonly andamento: Andamento | null;
  readonly pendencias: Pendencias | null;
  /** The days suppliers deliver, for a supplier's "deliver" step (empty when not read or not set). */
  readonly entregas: readonly DiaDeEntrega[];
}

interface Passo {
  readonly texto: string;
  /** Where it is done or seen; none when there is nothing to open. */
  readonly href: string | null;
  /** Done already: shown as a state, not as a task. */
  readonly feito: boolean;
}

/** Each next step as this person stands in it (proximos-passos.ts), with this face's link. */
function passoDe(acao: AcaoDoCiclo, c: CicloDoPainel): Passo {
  const p = passoDoCiclo(acao, c);
  const href =
    p.destino === null
      ? null
      : p.destino === 'pedido'
        ? `/pedidoconsumidoresconfirmacao/${c.andamento?.pedidoId ?? 0}`
        : linkDaAcao(acao, c.id);
  return { texto: p.texto, href, feito: p.feito };
}

/** Names, a few at most, then how many more. */
function alguns(nomes: readonly string[], maximo = 5): string {
  return nomes.length <= maximo
    ? nomes.join(', ')
    : `${nomes.slice(0, maximo).join(', ')} e mais ${nomes.length - maximo}`;
}

function pendenciasDoCiclo(c: CicloDoPainel): Html | string {
  const p = c.pendencias;
  if (p === null) return '';
  const ofertas = c.abertas.includes('oferta') || c.fase === 'composicao';
  const pedidos = c.abertas.includes('pedido') || c.fase === 'retirada';
  const linhas = [
    ofertas && p.semOferta.length > 0
      ? html`<li><a href="/oferta-index?cicloid=${c.id}">Sem oferta finalizada (${p.semOferta.length})</a>: ${alguns(p.semOferta.map((f) => f.nome))}</li>`
      : null,
    pedidos && p.naoConfirmados.length > 0
      ? html`<li><a href="/pedidosconsumidorestodos/${c.id}">Pedidos sem confirmação (${p.naoConfirmados.length})</a>: ${alguns(p.naoConfirmados.map((x) => x.nome))}</li>`
      : null,
  ].filter((l) => l !== null);
  return linhas.length === 0
    ? ''
    : html`<div class="pendencias"><p><strong>Falta acontecer:</strong></p><ul>${linhas}</ul></div>`;
}

/** Admin shortcuts, each shown only to whom the access table allows it. */
const ATALHOS: ReadonlyArray<readonly [Acao, string, string]> = [
  ['catalogoLer', '/ciclo-index', 'Ciclos'],
  ['catalogoLer', '/produto-index', 'Produtos'],
  ['catalogoLer', '/cesta-index', 'Cestas'],
  ['catalogoLer', '/categoria-index', 'Categorias'],
  ['catalogoLer', '/pontoentrega-index', 'Pontos de entrega'],
  ['usuariosLer', '/usuario-index', 'Usuários'],
  ['auditoriaLer', '/auditoria', 'Auditoria'],
  ['mensagensLer', '/mensagens', 'E-mails'],
  ['financeiroEscrever', '/movimentacao', 'Pagamentos'],
  ['financeiroEscrever', '/cobrancas', 'Quem deve o quê'],
  ['financeiroEscrever', '/extratos', 'Extratos do banco'],
  ['assinaturasTodas', '/assinaturas/todas', 'Assinaturas'],
];

export function atalhosDoAtor(ator: Ator): Array<{ href: string; rotulo: string }> {
  return ATALHOS.filter(([acao]) => pode(ator, acao)).map(([, href, rotulo]) => ({ href, rotulo }));
}

/** Where each next step of a cycle is done. */
export function linkDaAcao(acao: AcaoDoCiclo, cicloid: number): string {
  switch (acao) {
    case 'ofertar':
      return `/oferta/${cicloid}`;
    case 'compor':
      return `/ciclo/${cicloid}#composicao`;
    case 'pedir':
      return `/pedidoconsumidores/${cicloid}`;
    case 'entregar':
      return `/pedidosfornecedorestodos/${cicloid}`;
    case 'retirar':
      return `/pedidosconsumidorestodos/${cicloid}`;
  }
}

export function paginaPainel(
  ator: Ator,
  ciclos: readonly CicloDoPainel[],
  saldo: Saldo | null,
  suaCesta: Html = html``,
): Html {
  const perfis = ator.perfil.map((p) => NOMES_PERFIS[p]).join(', ');
  const atalhos = atalhosDoAtor(ator);
  const centavos = saldo === null ? 0 : saldo.saldoCentavos;
  return html`<p class="saudacao">Olá, ${ator.nome}! <span class="perfis">${perfis}</span></p>
  ${
    saldo === null
      ? ''
      : html`<p class="saldo">Seu saldo: <strong>${reais(centavos)}</strong>
      ${centavos < 0 ? ' (a pagar à comunidade)' : centavos > 0 ? ' (a receber da comunidade)' : ''} · <a href="/saldo">Ver o que devo e pagar</a></p>`
  }
  ${
    atalhos.length === 0
      ? ''
      : html`<nav aria-label="Administração"><ul class="atalhos">${atalhos.map((a) => html`<li><a class="botao secundario" href="${a.href}">${a.rotulo}</a></li>`)}</ul></nav>`
  }
  ${suaCesta}
  <section aria-labelledby="titulo-ciclos">
    <h2 id="titulo-ciclos">Ciclos</h2>
    ${
      ciclos.length === 0
        ? html`<p>Nenhum ciclo em andamento no momento.</p>`
        : html`<ul class="cartoes">${ciclos.map(
            (c) => html`<li class="cartao">
        <h3>${pode(ator, 'catalogoLer') ? html`<a href="/ciclo/${c.id}">${c.nome}</a>` : c.nome}</h3>
        <p class="fase fase-${c.fase}">${nomeDoMomento(c.fase, c.abertas)}</p>
        <dl class="datas">
          <dt>Ofertas</dt><dd>${dataBr(c.dataOfertaInicio)} a ${dataBr(c.dataOfertaFim)}</dd>
          <dt>Pedidos</dt><dd>${dataBr(c.dataPedidoInicio)} a ${dataBr(c.dataPedidoFim)}</dd>
          <dt>Retirada</dt><dd>${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}</dd>
        </dl>
        ${c.acoes.length === 0 ? '' : html`<p class="sr">Suas etapas neste ciclo:</p><ul class="passos">${c.acoes.map((a) => passoDe(a, c)).map((p) => html`<li class="${p.feito ? 'feito' : 'proxima'}">${p.href === null ? p.texto : html`<a href="${p.href}">${p.texto}</a>`}</li>`)}</ul>`}
        ${pendenciasDoCiclo(c)}
      </li>`,
          )}</ul>`
    }
  </section>`;
}

export interface FormCadastro {
  readonly identidade: Identidade;
  readonly usuario: Usuario | null;
  readonly valores: Readonly<Record<string, unknown>>;
  readonly erros: Readonly<Record<string, unknown>>;
  readonly csrf: string | null;
  readonly acao: string;
  readonly comPerfis: boolean;
}

function valorDe(valores: Readonly<Record<string, unknown>>, nome: string): string {
  const v = valores[nome];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function erroDe(erros: Readonly<Record<string, unknown>>, nome: string): string | undefined {
  const e = erros[nome];
  return typeof e === 'string' ? e : undefined;
}

function marcado(valores: Readonly<Record<string, unknown>>, nome: string, valor: string): boolean {
  const v = valores[nome];
  return Array.isArray(v) ? v.includes(valor) : v === valor || v === true || (v === 'on' && valor === 'on');
}

/** The self-registration and profile form: same fields, the perfil choice only at registration. */
export function formularioCadastro(f: FormCadastro): Html {
  const v = f.valores;
  return html`${resumoDeErros(f.erros)}
  <form method="post" action="${f.acao}" class="formulario" novalidate>
    ${campoCsrf(f.csrf)}
    ${campoTexto({ nome: 'email', rotulo: 'E-mail', valor: f.identidade.email, somenteLeitura: true, ajuda: 'Vem do seu login e não pode ser alterado aqui.' })}
    ${campoTexto({ nome: 'nome', rotulo: 'Nome', valor: valorDe(v, 'nome'), erro: erroDe(f.erros, 'nome'), obrigatorio: true, extra: html`autocomplete="name"` })}
    ${campoTexto({ nome: 'nomeoficial', rotulo: 'Nome oficial ou razão social', valor: valorDe(v, 'nomeoficial'), erro: erroDe(f.erros, 'nomeoficial') })}
    ${campoTexto({ nome: 'celular', rotulo: 'Celular', valor: valorDe(v, 'celular'), erro: erroDe(f.erros, 'celular'), tipo: 'tel', extra: html`autocomplete="tel"` })}
    ${campoAreaTexto({ nome: 'descritivo', rotulo: 'Sobre você (opcional)', valor: valorDe(v, 'descritivo'), erro: erroDe(f.erros, 'descritivo') })}
    ${
      f.comPerfis
        ? html`<fieldset class="campo${erroDe(f.erros, 'perfil') === undefined ? '' : ' com-erro'}">
      <legend>Como você participa?</legend>
      ${PERFIS_AUTOCADASTRO.map((p: Perfil) => caixaDeMarcar({ nome: 'perfil', valor: p, rotulo: NOMES_PERFIS[p], marcado: marcado(v, 'perfil', p) }))}
      ${erroDe(f.erros, 'perfil') === undefined ? '' : html`<p class="erro">${erroDe(f.erros, 'perfil')}</p>`}
    </fieldset>`
        : ''
    }
    <div class="campo${erroDe(f.erros, 'cientepolitica') === undefined ? '' : ' com-erro'}">
      <input type="hidden" name="cientepolitica" value="false">
      ${caixaDeMarcar({ nome: 'cientepolitica', valor: 'true', rotulo: 'Li e estou ciente da política da comunidade', marcado: marcado(v, 'cientepolitica', 'true') })}
      <p class="nota"><a href="/limitesolar" target="_blank" rel="noopener">Ler a política da comunidade (Limite solidário)</a>, numa nova aba, sem perder o que já foi preenchido.</p>
      ${erroDe(f.erros, 'cientepolitica') === undefined ? '' : html`<p class="erro">${erroDe(f.erros, 'cientepolitica')}</p>`}
    </div>
    <button type="submit" class="botao">Salvar</button>
  </form>`;
}

export function paginaPerfil(identidade: Identidade, usuario: Usuario | null, form: Html, csrf: string | null): Html {
  return html`<section class="identidade">
    ${identidade.picture === undefined ? '' : html`<img src="${identidade.picture}" alt="" width="64" height="64" class="avatar">`}
    <dl>
      <dt>E-mail do login</dt><dd>${identidade.email}${identidade.email_verified === true ? ' (verificado)' : ''}</dd>
      ${usuario === null ? '' : html`<dt>Perfis</dt><dd>${usuario.perfil.map((p) => NOMES_PERFIS[p]).join(', ')}</dd>`}
    </dl>
  </section>
  ${
    usuario === null
      ? html`<p>Você ainda não tem cadastro. <a href="/usuarionovo">Complete seu cadastro</a>.</p>`
      : html`${form}
  <p><a class="botao secundario" href="/profile/avisos">Avisos por e-mail</a> <span class="nota">Escolha quais lembretes recebe.</span></p>
  <form method="post" action="/profile/sairdetodos" class="apagar">
    ${campoCsrf(csrf)}
    <p>Esqueceu a sessão aberta em outro aparelho? Isto encerra todas as suas sessões, inclusive esta.</p>
    <button type="submit" class="botao">Sair de todos os aparelhos</button>
  </form>`
  }`;
}

/** Values to refill the form from a saved Usuario (or the identity, before registration). */
export function valoresDoUsuario(identidade: Identidade, usuario: Usuario | null): Record<string, unknown> {
  if (usuario === null) return { nome: identidade.name, perfil: ['consumidor'] };
  return {
    nome: usuario.nome,
    nomeoficial: usuario.nomeoficial ?? '',
    celular: usuario.celular ?? '',
    descritivo: usuario.descritivo ?? '',
    perfil: usuario.perfil,
    cientepolitica: usuario.cientepolitica ? 'true' : 'false',
  };
}
