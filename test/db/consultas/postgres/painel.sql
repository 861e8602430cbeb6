-- painel: GET / (JSON), consumidora
-- consultas: 4
select "id", "nome", "perfil", "ativo", "loginSub", "sessoesDesde", exists (select "sid" from "sessaoencerrada" where "sid" = $1) as "encerrada" from "usuario" where "emailChave" = $2;
select "id", "nome", "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim" from "ciclo" where "ativo" = $1 and "dataRetiradaFim" >= $2 order by "dataOfertaInicio", "id" limit $3;
select coalesce(sum(case when sentido = 'credito' then "valorCentavos" else -"valorCentavos" end), 0) as "centavos", count(*) as "n" from "movimentacao" where "usuarioid" = $1;
select "p"."cicloid", "p"."id", "p"."finalizado", "pe"."nome" as "ponto", "cpe"."dataRetirada", "cpe"."horaInicio", "cpe"."horaFim" from "pedido" as "p" inner join "pontoentrega" as "pe" on "pe"."id" = "p"."pontoEntregaId" left join "ciclopontoentrega" as "cpe" on "cpe"."cicloid" = "p"."cicloid" and "cpe"."pontoEntregaId" = "p"."pontoEntregaId" where "p"."usuarioid" = $1 and "p"."cicloid" in ($2, $3, $4);
