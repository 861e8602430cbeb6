-- pedido-salvar-de-novo: POST /pedidoconsumidores (JSON), o mesmo pedido salvo de novo
-- consultas: 14
select "id", "nome", "perfil", "ativo", "loginSub", "sessoesDesde", exists (select "sid" from "sessaoencerrada" where "sid" = $1) as "encerrada" from "usuario" where "emailChave" = $2;
begin;
select "id", "nome", "ativo", "fechadoEm", "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim" from "ciclo" where "id" = $1 for key share;
select "id", "nome" from "pontoentrega" where "id" = $1 and "ativo" = $2;
select "id" from "ciclocesta" where "id" in ($1, $2) order by "id" for update;
select "id" from "cicloproduto" where "id" in ($1, $2, $3) order by "id" for update;
select "p"."id", "p"."cicloid", "p"."usuarioid", "u"."nome" as "usuarioNome", "p"."pontoEntregaId", "pe"."nome" as "pontoNome", "p"."finalizado", "p"."dataConfirmacao", "pp"."id" as "itemId", "pp"."cicloCestaId", "pp"."cicloProdutoId", "pp"."quantidadeMilesimos", "pp"."valorCentavos", "cesta"."nome" as "cestaNome", "pr"."nome" as "produtoNome", "pr"."unidade" from "pedido" as "p" inner join "usuario" as "u" on "u"."id" = "p"."usuarioid" inner join "pontoentrega" as "pe" on "pe"."id" = "p"."pontoEntregaId" left join "pedidoproduto" as "pp" on "pp"."pedidoid" = "p"."id" left join "ciclocesta" as "cc" on "cc"."id" = "pp"."cicloCestaId" left join "cesta" on "cesta"."id" = "cc"."cestaId" left join "cicloproduto" as "cp" on "cp"."id" = "pp"."cicloProdutoId" left join "produto" as "pr" on "pr"."id" = "cp"."produtoId" where "p"."cicloid" = $1 and "p"."usuarioid" = $2 order by "pp"."id";
select "cc"."id", "cc"."cicloid", "cc"."quantidadeCestas", "cesta"."nome", "cesta"."valorReferenciaCentavos", "cesta"."ativo", "cc"."reservadoMilesimos", exists (select "x"."id" from "composicao" as "c" inner join "composicaoproduto" as "x" on "x"."composicaoid" = "c"."id" where "c"."cicloCestaId" = "cc"."id") as "composta" from "ciclocesta" as "cc" inner join "cesta" on "cesta"."id" = "cc"."cestaId" where "cc"."id" in ($1, $2);
select "cp"."id", "cp"."cicloid", "cp"."quantidadeMilesimos", "cp"."valorCentavos", "p"."nome", "p"."unidade", "cp"."reservadoMilesimos" from "cicloproduto" as "cp" inner join "produto" as "p" on "p"."id" = "cp"."produtoId" where "cp"."id" in ($1, $2, $3);
update "pedido" set "pontoEntregaId" = $1, "finalizado" = $2, "dataConfirmacao" = $3, "updatedAt" = $4 where "id" = $5;
delete from "pedidoproduto" where "pedidoid" = $1;
insert into "pedidoproduto" ("pedidoid", "cicloCestaId", "cicloProdutoId", "quantidadeMilesimos", "valorCentavos", "createdAt", "updatedAt") values ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14), ($15, $16, $17, $18, $19, $20, $21), ($22, $23, $24, $25, $26, $27, $28), ($29, $30, $31, $32, $33, $34, $35) returning "id", "cicloCestaId", "cicloProdutoId";
insert into "auditoria" ("usuarioid", "ator", "acao", "entidade", "entidadeId", "antes", "depois", "em") values ($1, $2, $3, $4, $5, $6, $7, $8);
commit;
