-- mercados-graphql-mercados-da-memoria: POST /graphql, a mesma leitura de novo, sem nada mudado (a resposta guardada)
-- consultas: 2
select "u"."id", "u"."providerId", "u"."email", "u"."emailVerificado", "u"."name", "u"."avatar", "u"."usuarioId", "pe"."perfil" as "papeis", "pe"."ativo" as "pessoaAtiva", "p"."name" as "perfil" from "appsession" as "s" inner join "appuser" as "u" on "u"."id" = "s"."userId" left join "usuario" as "pe" on "pe"."id" = "u"."usuarioId" left join "appuserprofile" as "up" on "up"."userId" = "u"."id" left join "profile" as "p" on "p"."id" = "up"."profileId" where "s"."id" = ? and "s"."expiresAt" > ? and ("pe"."sessoesDesde" is null or "s"."createdAt" > "pe"."sessoesDesde");
select "versao" from "versaodados" where "id" = ?;
