/** A charge, its Pix and the statement's lines: in words for people, in the contract's numbers for JSON. */
import type { Cobranca, Pix } from '../../domain/pix.ts';
import type { LinhaParaRevisar, ResumoDaImportacao } from '../../domain/extratos.ts';
import { descricaoDaLinha } from '../../formatos.ts';
import { dinheiroJson } from './numeros.ts';

export function pixJson(p: Pix | null) {
  return p === null
    ? null
    : { copiaECola: p.copiaECola, qrSvg: p.qrSvg, valor: dinheiroJson(p.valorCentavos), txid: p.txid };
}

export function cobrancaJson(c: Cobranca, pix: Pix | null) {
  return {
    usuarioid: c.usuarioid,
    nome: c.nome,
    devido: dinheiroJson(c.devidoCentavos),
    txid: c.txid,
    cicloid: c.cicloid === 0 ? null : c.cicloid,
    linhas: c.linhas.map((l) => ({
      tipo: l.tipo,
      descricao: descricaoDaLinha(l),
      valor: dinheiroJson(l.valorCentavos),
      cicloid: l.cicloid,
      pedidoId: l.pedidoId,
    })),
    pix: pixJson(pix),
  };
}

export function linhaDoExtratoJson(l: LinhaParaRevisar) {
  const { valorCentavos, ...resto } = l;
  return { ...resto, valor: dinheiroJson(valorCentavos) };
}

export function resumoDaImportacaoTexto(r: ResumoDaImportacao): string {
  const partes = [`${r.novas} ${r.novas === 1 ? 'crédito novo' : 'créditos novos'}`];
  if (r.repetidas > 0)
    partes.push(`${r.repetidas} já importado${r.repetidas === 1 ? '' : 's'} antes (nada mudou neles)`);
  if (r.novas > 0)
    partes.push(
      `${r.porTxid} pelo código do Pix, ${r.porNome} pelo valor e nome, ${r.ambiguas} com mais de uma pessoa possível`,
    );
  return `Extrato importado: ${partes.join('; ')}. Confira e confirme abaixo.`;
}
