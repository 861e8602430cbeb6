-- mercados-graphql-mercado: POST /graphql { mercado(id:) { nome precos { preco produto { nome } } acoes { editar } } }, primeira leitura
-- consultas: 5
select "u"."id", "u"."providerId", "u"."email", "u"."emailVerificado", "u"."name", "u"."avatar", "u"."usuarioId", "pe"."perfil" as "papeis", "pe"."ativo" as "pessoaAtiva", "p"."name" as "perfil" from "appsession" as "s" inner join "appuser" as "u" on "u"."id" = "s"."userId" left join "usuario" as "pe" on "pe"."id" = "u"."usuarioId" left join "appuserprofile" as "up" on "up"."userId" = "u"."id" left join "profile" as "p" on "p"."id" = "up"."profileId" where "s"."id" = ? and "s"."expiresAt" > ? and ("pe"."sessoesDesde" is null or "s"."createdAt" > "pe"."sessoesDesde");
select "versao" from "versaodados" where "id" = ?;
select * from "mercado" where "id" = ?;
select * from "precomercado" where "mercadoId" in (?) order by "id";
select "id", "nome", "unidade", "valorReferenciaCentavos", "ativo" from "produto" where "id" in (?, ?);
