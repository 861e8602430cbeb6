/**
 * What each message says, in pt-BR, as plain text and as HTML that reads well on a phone (one
 * column, inline styles, no images but a receipt's pickup QR code). Every message links to the
 * page it concerns. Numbers, dates and hours are written as on the pages.
 */
import { html, type Html } from '../http/html.ts';
import type { Pedido } from '../domain/pedidos/modelo.ts';
import { dataBr, dataHoraBr, numeroDeQuantidade, quantidade, reais } from '../formatos.ts';

export interface Conteudo {
  readonly assunto: string;
  readonly texto: string;
  readonly html: string;
}

/** A cycle as the messages name it. */
export interface CicloDoAviso {
  readonly id: number;
  readonly nome: string;
  readonly dataOfertaFim: string;
  readonly dataPedidoInicio: string;
  readonly dataPedidoFim: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
}

/** A message body: paragraphs (text), an optional table, the call to action and the footer. */
interface Corpo {
  readonly saudacao: string;
  readonly paragrafos: readonly string[];
  readonly tabela?: {
    readonly colunas: readonly string[];
    readonly linhas: ReadonlyArray<readonly string[]>;
    readonly rodape?: ReadonlyArray<readonly string[]>;
  };
  readonly acao: { readonly rotulo: string; readonly url: string };
  /** Where the person turns this kind off; absent for receipts and the coordination's messages. */
  readonly cancelar?: string;
  readonly pagamento?: Pagamento | null;
  /** A receipt's pickup QR code, below where to pick up. */
  readonly qr?: QrDaRetirada | null;
}

const MOSTRE = 'Mostre este código na retirada';

/**
 * How to pay by Pix: the charge line by line and the copy-and-paste code. An e-mail shows no QR
 * image of the Pix (many clients block or mangle images); the code pastes into any bank's app.
 */
export interface Pagamento {
  readonly linhas: ReadonlyArray<readonly [string, string]>;
  readonly total: string;
  readonly copiaECola: string;
  readonly txid: string;
}

/**
 * The receipt's pickup QR code (issue 38): the address of the order's QR page, which a volunteer's
 * phone reads at the point, offline. The image is a PNG data URI that the sender attaches to the
 * message (`cid:`), the one image form the common mail programs show; where images are off, the
 * link opens the same code on the page.
 */
export interface QrDaRetirada {
  readonly url: string;
  readonly png: string;
}

const COR = '#1f5c2e';

/** What the Pix pays, beside its amount: the balance, never one order (docs/dominio.md). */
function oQuePaga(total: string): string {
  return `Este Pix paga tudo o que você deve hoje: ${total}, o saldo, e não um pedido só.`;
}

function montar(assunto: string, c: Corpo): Conteudo {
  const tabelaTexto =
    c.tabela === undefined
      ? []
      : [...c.tabela.linhas, ...(c.tabela.rodape ?? [])].map((l) => `- ${l.filter((x) => x !== '').join(' · ')}`);
  const texto = [
    c.saudacao,
    '',
    ...c.paragrafos.flatMap((p) => [p, '']),
    ...(c.qr === undefined || c.qr === null ? [] : [`${MOSTRE} (o QR code do seu pedido): ${c.qr.url}`, '']),
    ...(tabelaTexto.length === 0 ? [] : [...tabelaTexto, '']),
    ...(c.pagamento === undefined || c.pagamento === null
      ? []
      : [
          'Como pagar por Pix:',
          oQuePaga(c.pagamento.total),
          ...c.pagamento.linhas.map(([d, v]) => `- ${d}: ${v}`),
          `Total a pagar: ${c.pagamento.total}`,
          '',
          'Pix copia e cola (copie a linha inteira e cole em "Pix copia e cola" no app do banco):',
          c.pagamento.copiaECola,
          '',
        ]),
    `${c.acao.rotulo}: ${c.acao.url}`,
    '',
    '—',
    'Cestaria',
    ...(c.cancelar === undefined ? [] : [`Para não receber mais este tipo de aviso: ${c.cancelar}`]),
  ].join('\n');
  // Figures never break inside ("R$" on one line, the number on the next) on a phone.
  const celula = (x: string, cabecalho: boolean, direita: boolean): Html =>
    cabecalho
      ? html`<th style="text-align:${direita ? 'right' : 'left'};padding:6px 4px;border-bottom:1px solid #ccc;font-size:14px">${x}</th>`
      : html`<td style="text-align:${direita ? 'right;white-space:nowrap' : 'left'};padding:6px 4px;border-bottom:1px solid #eee;font-size:14px">${x}</td>`;
  const numerica = (i: number) => i > 0;
  const largura = c.tabela?.colunas.length ?? 1;
  const tabela =
    c.tabela === undefined
      ? ''
      : html`<table role="presentation" style="width:100%;border-collapse:collapse;margin:12px 0">
      <thead><tr>${c.tabela.colunas.map((x, i) => celula(x, true, numerica(i)))}</tr></thead>
      <tbody>${c.tabela.linhas.map((l) => html`<tr>${l.map((x, i) => celula(x, false, numerica(i)))}</tr>`)}</tbody>
      ${
        c.tabela.rodape === undefined
          ? ''
          : html`<tfoot>${c.tabela.rodape.map(
              (l) => html`<tr>
        <td colspan="${largura - 1}" style="text-align:left;padding:6px 4px;font-weight:bold;font-size:14px">${l[0] ?? ''}</td>
        <td style="text-align:right;white-space:nowrap;padding:6px 4px;font-weight:bold;font-size:14px">${l.at(-1) ?? ''}</td></tr>`,
            )}</tfoot>`
      }
    </table>`;
  const corpo = html`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${assunto}</title></head>
<body style="margin:0;padding:0;background:#f6f5ef;font-family:-apple-system,Segoe UI,Roboto,Arial,sans-serif;color:#1d1d1b">
<div style="max-width:600px;margin:0 auto;padding:16px">
  <p style="margin:0 0 12px;font-weight:bold;color:${COR};font-size:18px">Cestaria</p>
  <div style="background:#fff;border-radius:8px;padding:16px;border:1px solid #e2e0d6">
    <p style="margin:0 0 12px;font-size:16px">${c.saudacao}</p>
    ${c.paragrafos.map((p) => html`<p style="margin:0 0 12px;font-size:16px;line-height:1.45">${p}</p>`)}
    ${
      c.qr === undefined || c.qr === null
        ? ''
        : html`<div style="margin:4px 0 16px;text-align:center">
      <p style="margin:0 0 8px;font-size:16px;font-weight:bold">${MOSTRE}</p>
      <img src="${c.qr.png}" width="200" height="200" alt="QR code do seu pedido, para mostrar na retirada" style="display:block;margin:0 auto;width:200px;height:200px;border:0">
      <p style="margin:8px 0 0;font-size:14px">Não aparece? <a href="${c.qr.url}" style="color:${COR}">Abra o código no navegador</a>.</p>
    </div>`
    }
    ${tabela}
    ${
      c.pagamento === undefined || c.pagamento === null
        ? ''
        : html`<h2 style="font-size:17px;margin:16px 0 8px;color:${COR}">Como pagar por Pix</h2>
    <p style="margin:0 0 8px;font-size:14px">${oQuePaga(c.pagamento.total)}</p>
    <table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 8px">${c.pagamento.linhas.map(([d, v]) => html`<tr>${celula(d, false, false)}${celula(v, false, true)}</tr>`)}
      <tr><td style="text-align:left;padding:6px 4px;font-weight:bold;font-size:14px">Total a pagar</td><td style="text-align:right;white-space:nowrap;padding:6px 4px;font-weight:bold;font-size:14px">${c.pagamento.total}</td></tr></table>
    <p style="margin:8px 0 4px;font-size:14px">Pix copia e cola: copie o código inteiro e cole em "Pix copia e cola" no app do banco.</p>
    <p style="margin:0 0 12px;font-family:monospace;font-size:13px;word-break:break-all;background:#f6f5ef;border:1px solid #e2e0d6;border-radius:6px;padding:8px">${c.pagamento.copiaECola}</p>`
    }
    <p style="margin:16px 0 4px"><a href="${c.acao.url}" style="display:inline-block;background:${COR};color:#fff;text-decoration:none;padding:12px 18px;border-radius:6px;font-weight:bold;font-size:16px">${c.acao.rotulo}</a></p>
  </div>
  ${c.cancelar === undefined ? '' : html`<p style="font-size:13px;color:#555;margin:12px 4px">Não quer mais este tipo de aviso? <a href="${c.cancelar}" style="color:#555">Deixar de receber</a>.</p>`}
</div>
</body></html>`;
  return { assunto, texto, html: corpo.texto };
}

const ola = (nome: string) => `Olá, ${nome.split(/\s+/)[0] ?? nome}!`;

export function ofertaAberta(nome: string, c: CicloDoAviso, base: string, cancelar: string): Conteudo {
  return montar(`Ofertas abertas: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `O período de ofertas do ${c.nome} está aberto até ${dataBr(c.dataOfertaFim)}. Registre o que vai ter para oferecer neste ciclo.`,
    ],
    acao: { rotulo: 'Registrar minha oferta', url: `${base}/oferta/${c.id}` },
    cancelar,
  });
}

export function ofertaLembrete(
  nome: string,
  c: CicloDoAviso,
  rascunho: boolean,
  base: string,
  cancelar: string,
): Conteudo {
  return montar(`Último dia para ofertar: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      rascunho
        ? `Sua oferta no ${c.nome} ainda é um rascunho. As ofertas fecham hoje, ${dataBr(c.dataOfertaFim)}: finalize-a para que a coordenação possa usá-la.`
        : `As ofertas do ${c.nome} fecham hoje, ${dataBr(c.dataOfertaFim)}, e ainda não há oferta sua.`,
    ],
    acao: { rotulo: rascunho ? 'Finalizar minha oferta' : 'Registrar minha oferta', url: `${base}/oferta/${c.id}` },
    cancelar,
  });
}

export function pedidoAberto(nome: string, c: CicloDoAviso, base: string, cancelar: string): Conteudo {
  return montar(`Pedidos abertos: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `Os pedidos do ${c.nome} estão abertos até ${dataBr(c.dataPedidoFim)}. A retirada é de ${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}.`,
    ],
    acao: { rotulo: 'Fazer meu pedido', url: `${base}/pedidoconsumidores/${c.id}` },
    cancelar,
  });
}

export function pedidoLembrete(
  nome: string,
  c: CicloDoAviso,
  pedidoId: number | null,
  base: string,
  cancelar: string,
): Conteudo {
  return montar(`Último dia para pedir: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      pedidoId === null
        ? `Os pedidos do ${c.nome} fecham hoje, ${dataBr(c.dataPedidoFim)}, e ainda não há pedido seu.`
        : `Seu pedido no ${c.nome} está salvo, mas não confirmado. Os pedidos fecham hoje, ${dataBr(c.dataPedidoFim)}: se ele não for confirmado até as 23:59 de hoje, não será entregue nem cobrado, e as cestas e os itens que ele reserva voltam a ficar livres para outros pedidos.`,
    ],
    acao:
      pedidoId === null
        ? { rotulo: 'Fazer meu pedido', url: `${base}/pedidoconsumidores/${c.id}` }
        : { rotulo: 'Confirmar meu pedido', url: `${base}/pedidoconsumidoresconfirmacao/${pedidoId}` },
    cancelar,
  });
}

/** A subscriber's basket comes in the cycle whose order window is open: they may skip it. */
export function assinaturaNoCiclo(nome: string, c: CicloDoAviso, base: string, cancelar: string): Conteudo {
  return montar(`Sua cesta vem no ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `Sua cesta vem neste ciclo; quer pular? Pela sua assinatura, a cesta do ${c.nome} já está no seu pedido (ou entra nele). A retirada é de ${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}.`,
      `Se não puder receber desta vez, pule este ciclo até ${dataBr(c.dataPedidoFim)}, quando fecham os pedidos.`,
    ],
    acao: { rotulo: 'Ver minhas assinaturas', url: `${base}/assinaturas` },
    cancelar,
  });
}

/** A subscriber's basket could not be served in the cycle (faltou): why, and what to do. */
export function faltaNaAssinatura(
  nome: string,
  c: CicloDoAviso,
  faltas: ReadonlyArray<{ cesta: string; quantidade: number; motivo: string }>,
  base: string,
): Conteudo {
  return montar(`Sua cesta de assinatura faltou no ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      ...faltas.map(
        (f) => `Não foi possível servir ${f.quantidade} × ${f.cesta} da sua assinatura no ${c.nome}: ${f.motivo}.`,
      ),
      `Nada será cobrado por ela neste ciclo. Se ainda houver outras cestas, você pode pedir até ${dataBr(c.dataPedidoFim)}.`,
    ],
    acao: { rotulo: 'Ver minhas assinaturas', url: `${base}/assinaturas` },
  });
}

/** The coordination's notice of a cycle's subscription shortages: who was not served, and why. */
export function faltasParaCoordenacao(
  nome: string,
  c: CicloDoAviso,
  faltas: ReadonlyArray<{ consumidor: string; cesta: string; quantidade: number; motivo: string }>,
  base: string,
): Conteudo {
  return montar(`Assinaturas sem cesta no ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `${faltas.length === 1 ? 'Uma assinatura não pôde ser servida' : `${faltas.length} assinaturas não puderam ser servidas`} no ${c.nome}.`,
    ],
    tabela: {
      colunas: ['Quem assina', 'Cesta', 'Motivo'],
      linhas: faltas.map((f) => [f.consumidor, `${f.quantidade} × ${f.cesta}`, f.motivo]),
    },
    acao: { rotulo: 'Ver o ciclo', url: `${base}/ciclo/${c.id}` },
  });
}

/** Where to pick up, as one line: the point, its address, and the cycle's day and hours there. */
export interface Retirada {
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly quando: string;
}

function ondeRetirar(r: Retirada, c: CicloDoAviso): string {
  const lugar = [r.nome, [r.endereco, r.cidade].filter((x) => x !== null && x !== '').join(', ')]
    .filter((x) => x !== '')
    .join(' — ');
  return `Retirada em ${lugar}, ${r.quando === '' ? `de ${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}` : r.quando}.`;
}

function tabelaDoPedido(p: Pedido, rotuloDoTotal = 'A pagar') {
  return {
    colunas: ['Item', 'Quantidade', 'Valor'],
    linhas: p.produtos.map((l) => [
      l.mercado === null ? l.nome : `${l.nome} (${l.mercado})`,
      l.tipo === 'cesta'
        ? `${numeroDeQuantidade(l.quantidadeMilesimos)} × ${reais(l.valorCentavos)}`
        : `${quantidade(l.quantidadeMilesimos, l.unidade)} × ${reais(l.valorCentavos)}`,
      reais(l.subtotalCentavos),
    ]),
    rodape: [
      ['Total dos itens', '', reais(p.totalCentavos)],
      // Each market's fee on its own line (DOMAIN.md, Fees); one line in a cycle without markets.
      ...(p.partes.some((x) => x.mercadoId !== null)
        ? p.partes
            .filter((x) => x.taxaCentavos > 0)
            .map((x) => [
              x.mercado === null ? 'Taxa administrativa' : `Taxa de ${x.mercado}`,
              '',
              reais(x.taxaCentavos),
            ])
        : [['Taxa administrativa', '', reais(p.taxaCentavos)]]),
      [rotuloDoTotal, '', reais(p.totalComTaxaCentavos)],
    ],
  };
}

export function recibo(
  nome: string,
  c: CicloDoAviso,
  p: Pedido,
  r: Retirada,
  base: string,
  pagamento: Pagamento | null = null,
  qr: QrDaRetirada | null = null,
): Conteudo {
  return montar(`Pedido confirmado: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `Seu pedido no ${c.nome} está confirmado${p.dataConfirmacao === null ? '' : ` (em ${dataHoraBr(p.dataConfirmacao)})`}. Este é o seu recibo.`,
      ondeRetirar(r, c),
    ],
    qr,
    tabela: tabelaDoPedido(p),
    pagamento,
    acao: { rotulo: 'Ver meu pedido', url: `${base}/pedidoconsumidoresconfirmacao/${p.pedidoId}` },
  });
}

/**
 * How a subscriber's cycle is paid, from the ledger and the open orders (the charge of /saldo):
 * nothing owed, the credit paid in advance covers it and `restanteCentavos` is left after it; or
 * `devidoCentavos` is owed, with the Pix when the community receives by Pix.
 */
export type PagamentoDoCiclo =
  | { readonly coberto: true; readonly restanteCentavos: number }
  | { readonly coberto: false; readonly devidoCentavos: number; readonly pix: Pagamento | null };

function pagamentoDoCiclo(p: Pedido, pago: PagamentoDoCiclo, base: string): string {
  const total = reais(p.totalComTaxaCentavos);
  if (pago.coberto) {
    return pago.restanteCentavos === 0
      ? `Pagamento: seu crédito pago adiantado cobre este pedido (${total}) e termina com ele; não resta crédito para os próximos ciclos.`
      : `Pagamento: seu crédito pago adiantado cobre este pedido (${total}). Depois dele, restam ${reais(pago.restanteCentavos)} de crédito.`;
  }
  const devido = reais(pago.devidoCentavos);
  const como = pago.pix === null ? `. O detalhe está em Meu saldo: ${base}/saldo.` : ', por Pix, como abaixo.';
  if (pago.devidoCentavos === p.totalComTaxaCentavos) return `Pagamento: falta pagar ${devido}${como}`;
  return pago.devidoCentavos < p.totalComTaxaCentavos
    ? `Pagamento: seu crédito cobre parte deste pedido (${total}); falta pagar ${devido}${como}`
    : `Pagamento: falta pagar ${devido}, este pedido (${total}) e o que já estava em aberto${como}`;
}

/**
 * The subscriber's receipt once the cycle's order window is over: the final order (baskets,
 * extras, fee, total), where and when to pick it up, and how it is paid.
 */
export function reciboDaAssinatura(
  nome: string,
  c: CicloDoAviso,
  p: Pedido,
  r: Retirada,
  base: string,
  pago: PagamentoDoCiclo,
  qr: QrDaRetirada | null = null,
): Conteudo {
  return montar(`Recibo da sua assinatura: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `Os pedidos do ${c.nome} fecharam em ${dataBr(c.dataPedidoFim)}. Este é o recibo do seu pedido final, com a cesta da sua assinatura e o que mais você pediu.`,
      ondeRetirar(r, c),
      pagamentoDoCiclo(p, pago, base),
    ],
    qr,
    tabela: tabelaDoPedido(p, 'Total do pedido'),
    pagamento: pago.coberto ? null : pago.pix,
    acao: { rotulo: 'Ver meu pedido', url: `${base}/pedidoconsumidoresconfirmacao/${p.pedidoId}` },
  });
}

export function pedidoAlterado(nome: string, c: CicloDoAviso, p: Pedido, base: string): Conteudo {
  return montar(`Pedido alterado, falta confirmar: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      `Seu pedido no ${c.nome} foi alterado e voltou a ficar sem confirmação. Enquanto não for confirmado de novo, ele não é entregue nem cobrado.`,
      `Os pedidos fecham em ${dataBr(c.dataPedidoFim)}.`,
    ],
    tabela: tabelaDoPedido(p),
    acao: { rotulo: 'Confirmar de novo', url: `${base}/pedidoconsumidoresconfirmacao/${p.pedidoId}` },
  });
}

export interface LinhaDeEntrega {
  readonly produto: string;
  readonly quantidade: string;
  readonly valor: string;
}

export function entregas(
  nome: string,
  c: CicloDoAviso,
  linhas: readonly LinhaDeEntrega[],
  total: string,
  quando: string,
  base: string,
  cancelar: string,
): Conteudo {
  return montar(`O que entregar: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      quando === ''
        ? `Os pedidos do ${c.nome} fecharam. A coordenação ainda não marcou o dia da entrega: combine com ela quando e onde entregar.`
        : `Os pedidos do ${c.nome} fecharam. Quando e onde entregar: ${quando}.`,
      'Isto é o que você entrega:',
    ],
    tabela: {
      colunas: ['Produto', 'Quantidade', 'Valor'],
      linhas: linhas.map((l) => [l.produto, l.quantidade, l.valor]),
      rodape: [['Total', '', total]],
    },
    acao: { rotulo: 'Ver minhas entregas', url: `${base}/pedidosfornecedorestodos/${c.id}` },
    cancelar,
  });
}

export function retirada(
  nome: string,
  c: CicloDoAviso,
  pedidoId: number,
  r: Retirada,
  base: string,
  cancelar: string,
  qr: QrDaRetirada | null = null,
): Conteudo {
  return montar(`Amanhã é dia de retirar sua cesta: ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [ondeRetirar(r, c)],
    // The receipt's pickup QR again, the day before, where the person will look for it.
    qr,
    acao: { rotulo: 'Ver meu pedido', url: `${base}/pedidoconsumidoresconfirmacao/${pedidoId}` },
    cancelar,
  });
}

export function daCoordenacao(
  nome: string,
  c: CicloDoAviso,
  assunto: string,
  texto: string,
  remetente: string,
  base: string,
): Conteudo {
  return montar(`${assunto} · ${c.nome}`, {
    saudacao: ola(nome),
    paragrafos: [
      ...texto
        .split(/\n{2,}/)
        .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
        .filter((p) => p !== ''),
      `— ${remetente}, pela coordenação do ${c.nome}`,
    ],
    acao: { rotulo: 'Abrir a Cestaria', url: `${base}/` },
  });
}
