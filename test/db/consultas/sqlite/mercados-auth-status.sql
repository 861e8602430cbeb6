-- mercados-auth-status: GET /auth/status da face Mercados, com sessão
-- consultas: 1
select "u"."id", "u"."providerId", "u"."email", "u"."name", "u"."avatar", "u"."usuarioId", "pe"."perfil" as "papeis", "pe"."ativo" as "pessoaAtiva", "p"."name" as "perfil" from "appsession" as "s" inner join "appuser" as "u" on "u"."id" = "s"."userId" left join "usuario" as "pe" on "pe"."id" = "u"."usuarioId" left join "appuserprofile" as "up" on "up"."userId" = "u"."id" left join "profile" as "p" on "p"."id" = "up"."profileId" where "s"."id" = ? and "s"."expiresAt" > ?;
