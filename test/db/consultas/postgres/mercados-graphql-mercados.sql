-- mercados-graphql-mercados: POST /graphql { mercados { admin { name } precos { produto { nome } } } }, primeira leitura depois de uma escrita (3 mercados, 2 preços cada)
-- consultas: 7
select "u"."id", "u"."providerId", "u"."email", "u"."name", "u"."avatar", "u"."usuarioId", "pe"."perfil" as "papeis", "pe"."ativo" as "pessoaAtiva", "p"."name" as "perfil" from "appsession" as "s" inner join "appuser" as "u" on "u"."id" = "s"."userId" left join "usuario" as "pe" on "pe"."id" = "u"."usuarioId" left join "appuserprofile" as "up" on "up"."userId" = "u"."id" left join "profile" as "p" on "p"."id" = "up"."profileId" where "s"."id" = $1 and "s"."expiresAt" > $2;
select "versao" from "versaodados" where "id" = $1;
SELECT (SELECT count(*) FROM mercado) AS mercados, (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM precomercado GROUP BY "mercadoId") p) AS precos, (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM mercado GROUP BY "adminId") a) AS "porAdmin", (SELECT count(*) FROM appuser) AS contas, (SELECT count(*) FROM produto) AS produtos;
select * from "mercado" order by "id";
select "u"."id", "u"."providerId", "u"."email", "u"."name", "u"."avatar", "u"."usuarioId", "pe"."perfil" as "papeis", "pe"."ativo" as "pessoaAtiva", "p"."name" as "perfil" from "appuser" as "u" left join "usuario" as "pe" on "pe"."id" = "u"."usuarioId" left join "appuserprofile" as "up" on "up"."userId" = "u"."id" left join "profile" as "p" on "p"."id" = "up"."profileId" where "u"."id" in ($1);
select * from "precomercado" where "mercadoId" in ($1, $2, $3) order by "id";
select "id", "nome", "unidade", "valorReferenciaCentavos", "ativo" from "produto" where "id" in ($1, $2, $3, $4);
