-- oferta-final: POST /ofertasave (JSON), primeira oferta final da fornecedora: 3 produtos
-- consultas: 15
select "id", "nome", "perfil", "ativo", "loginSub", "sessoesDesde", exists (select "sid" from "sessaoencerrada" where "sid" = ?) as "encerrada" from "usuario" where "emailChave" = ?;
begin immediate;
select "id", "nome", "ativo", "fechadoEm", "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim" from "ciclo" where "id" = ?;
select "id", "unidade" from "produto" where "id" in (?, ?, ?) and "ativo" = ?;
select * from "oferta" where "cicloid" = ? and "usuarioid" = ?;
insert into "oferta" ("cicloid", "usuarioid", "finalizada", "createdAt", "updatedAt") values (?, ?, ?, ?, ?) on conflict ("cicloid", "usuarioid") do nothing;
select "id" from "oferta" where "cicloid" = ? and "usuarioid" = ?;
insert into "ofertaproduto" ("ofertaid", "produtoid", "quantidadeMilesimos", "valorCentavos", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?) on conflict ("ofertaid", "produtoid") do update set "quantidadeMilesimos" = "excluded"."quantidadeMilesimos", "valorCentavos" = "excluded"."valorCentavos", "updatedAt" = "excluded"."updatedAt";
update "oferta" set "finalizada" = ?, "finalizadaEm" = ?, "updatedAt" = ? where "id" = ?;
select "op"."id" as "ofertaProdutoId", "o"."id" as "ofertaId", "op"."produtoid" as "produtoId", "p"."nome" as "produto", "p"."unidade", "o"."usuarioid" as "fornecedorId", "u"."nome" as "fornecedor", "op"."valorCentavos", "op"."quantidadeMilesimos" as "ofertadoMil", "o"."finalizada", "o"."finalizadaEm", (select coalesce(sum("cp"."quantidadePorCestaMilesimos" * "c"."quantidadeCestas"), 0) as "s" from "composicaoproduto" as "cp" inner join "composicao" as "c" on "c"."id" = "cp"."composicaoid" where "cp"."ofertaProdutoId" = "op"."id") as "paraCestasMil" from "ofertaproduto" as "op" inner join "oferta" as "o" on "o"."id" = "op"."ofertaid" inner join "produto" as "p" on "p"."id" = "op"."produtoid" inner join "usuario" as "u" on "u"."id" = "o"."usuarioid" where "o"."cicloid" = ? and ("o"."finalizada" = ? or exists (select "usa"."id" from "composicaoproduto" as "usa" where "usa"."ofertaProdutoId" = "op"."id")) order by "p"."nome", "op"."valorCentavos", "op"."id";
select "cp"."id" as "cicloProdutoId", "cp"."produtoId", "p"."nome" as "produto", "p"."unidade", "cp"."quantidadeMilesimos" as "publicadoMil", "cp"."valorCentavos" from "cicloproduto" as "cp" inner join "produto" as "p" on "p"."id" = "cp"."produtoId" where "cp"."cicloid" = ? order by "cp"."id";
select * from "oferta" where "cicloid" = ? and "usuarioid" = ?;
select "op"."id" as "ofertaProdutoId", "op"."produtoid", "p"."nome", "p"."unidade", "op"."quantidadeMilesimos", "op"."valorCentavos", (select coalesce(sum("cp"."quantidadePorCestaMilesimos" * "c"."quantidadeCestas"), 0) as "s" from "composicaoproduto" as "cp" inner join "composicao" as "c" on "c"."id" = "cp"."composicaoid" where "cp"."ofertaProdutoId" = "op"."id") as "alocadoMil" from "ofertaproduto" as "op" inner join "produto" as "p" on "p"."id" = "op"."produtoid" where "op"."ofertaid" = ? order by "p"."nome";
insert into "auditoria" ("usuarioid", "ator", "acao", "entidade", "entidadeId", "antes", "depois", "em") values (?, ?, ?, ?, ?, ?, ?, ?);
commit;
