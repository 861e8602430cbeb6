-- painel: GET / (JSON), consumidora
-- consultas: 4
select "id", "nome", "perfil", "ativo", "loginSub", "sessoesDesde", exists (select "sid" from "sessaoencerrada" where "sid" = ?) as "encerrada", exists (select "assinatura"."id" from "assinatura" where "assinatura"."usuarioid" = "usuario"."id" and "assinatura"."ativa" = ?) as "assinante" from "usuario" where "emailChave" = ?;
select "id", "nome", "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim" from "ciclo" where "ativo" = ? and "dataRetiradaFim" >= ? order by "dataOfertaInicio", "id" limit ?;
select coalesce(sum(case when sentido = 'credito' then "valorCentavos" else -"valorCentavos" end), 0) as "centavos", count(*) as "n" from "movimentacao" where "usuarioid" = ?;
select "p"."cicloid", "p"."id", "p"."finalizado", "pe"."nome" as "ponto", "cpe"."dataRetirada", "cpe"."horaInicio", "cpe"."horaFim" from "pedido" as "p" inner join "pontoentrega" as "pe" on "pe"."id" = "p"."pontoEntregaId" left join "ciclopontoentrega" as "cpe" on "cpe"."cicloid" = "p"."cicloid" and "cpe"."pontoEntregaId" = "p"."pontoEntregaId" where "p"."usuarioid" = ? and "p"."cicloid" in (?, ?, ?);
