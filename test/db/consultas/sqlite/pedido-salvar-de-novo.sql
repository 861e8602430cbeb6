-- pedido-salvar-de-novo: POST /pedidoconsumidores (JSON), o mesmo pedido salvo de novo
-- consultas: 12
select "id", "nome", "perfil", "ativo", "loginSub", "sessoesDesde", exists (select "sid" from "sessaoencerrada" where "sid" = ?) as "encerrada" from "usuario" where "emailChave" = ?;
begin immediate;
select "id", "nome", "ativo", "fechadoEm", "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim" from "ciclo" where "id" = ?;
select "id", "nome" from "pontoentrega" where "id" = ? and "ativo" = ?;
select "p"."id", "p"."cicloid", "p"."usuarioid", "u"."nome" as "usuarioNome", "p"."pontoEntregaId", "pe"."nome" as "pontoNome", "p"."finalizado", "p"."dataConfirmacao", "pp"."id" as "itemId", "pp"."cicloCestaId", "pp"."cicloProdutoId", "pp"."quantidadeMilesimos", "pp"."valorCentavos", "cesta"."nome" as "cestaNome", "pr"."nome" as "produtoNome", "pr"."unidade" from "pedido" as "p" inner join "usuario" as "u" on "u"."id" = "p"."usuarioid" inner join "pontoentrega" as "pe" on "pe"."id" = "p"."pontoEntregaId" left join "pedidoproduto" as "pp" on "pp"."pedidoid" = "p"."id" left join "ciclocesta" as "cc" on "cc"."id" = "pp"."cicloCestaId" left join "cesta" on "cesta"."id" = "cc"."cestaId" left join "cicloproduto" as "cp" on "cp"."id" = "pp"."cicloProdutoId" left join "produto" as "pr" on "pr"."id" = "cp"."produtoId" where "p"."cicloid" = ? and "p"."usuarioid" = ? order by "pp"."id";
select "cc"."id", "cc"."cicloid", "cc"."quantidadeCestas", "cesta"."nome", "cesta"."valorReferenciaCentavos", "cesta"."ativo", "cc"."reservadoMilesimos", exists (select "x"."id" from "composicao" as "c" inner join "composicaoproduto" as "x" on "x"."composicaoid" = "c"."id" where "c"."cicloCestaId" = "cc"."id") as "composta" from "ciclocesta" as "cc" inner join "cesta" on "cesta"."id" = "cc"."cestaId" where "cc"."id" in (?, ?);
select "cp"."id", "cp"."cicloid", "cp"."quantidadeMilesimos", "cp"."valorCentavos", "p"."nome", "p"."unidade", "cp"."reservadoMilesimos" from "cicloproduto" as "cp" inner join "produto" as "p" on "p"."id" = "cp"."produtoId" where "cp"."id" in (?, ?, ?);
update "pedido" set "pontoEntregaId" = ?, "finalizado" = ?, "dataConfirmacao" = ?, "updatedAt" = ? where "id" = ?;
delete from "pedidoproduto" where "pedidoid" = ?;
insert into "pedidoproduto" ("pedidoid", "cicloCestaId", "cicloProdutoId", "quantidadeMilesimos", "valorCentavos", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?) returning "id", "cicloCestaId", "cicloProdutoId";
insert into "auditoria" ("usuarioid", "ator", "acao", "entidade", "entidadeId", "antes", "depois", "em") values (?, ?, ?, ?, ?, ?, ?, ?);
commit;
