# Cestaria em produção: uma imagem com as duas faces. Veja docs/operations.md.

# 1. O cliente web da face Mercados (React + Vite): construído com as devDependencies pelo
#    `prepare` do npm (scripts/construir-cliente.ts); só o resultado, dist/mercados, segue adiante.
FROM node:24-bookworm-slim AS cliente
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/construir-cliente.ts ./scripts/
COPY web ./web
RUN npm ci --no-audit --no-fund \
    && test -f dist/mercados/index.html

# 2. Dependências de produção. O pacote npm "node" (dependência do projeto) traz o Node 24
#    que o serviço usa; o npm desta etapa só serve para instalá-lo. Sem o Vite, o `prepare`
#    apenas confere que o cliente construído na etapa anterior está lá.
FROM node:24-bookworm-slim AS dependencias
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/construir-cliente.ts ./scripts/
COPY --from=cliente /app/dist ./dist
RUN npm ci --omit=dev --no-audit --no-fund \
    && node_modules/.bin/node --version

# 3. A imagem final: sem npm nem ferramentas de compilação; o Node é o de node_modules/.bin.
#    postgresql-client traz pg_dump/pg_restore para `backup` e `restore` (versão 15, a do
#    PostgreSQL do compose.yaml: o pg_dump precisa ser da versão do servidor ou mais novo).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates postgresql-client \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 cestaria \
    && useradd --system --uid 10001 --gid cestaria --home-dir /app --shell /usr/sbin/nologin cestaria
WORKDIR /app
# NODE_OPTIONS: o V8 dimensiona o heap pela memória da máquina (geração jovem de 128 MB e velha
# de ~4 GB numa de 24 GiB); 16 MB por semi-espaço e 512 MB de geração velha cortam ~80 e ~100 MB
# do RSS sem custo de CPU medido (docs/operations.md).
# NODE_COMPILE_CACHE: o código já sem os tipos (e o bytecode do V8) fica em disco, feito aqui na
# construção: o processo não carrega o removedor de tipos ao subir (docs/operations.md).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=16 --max-old-space-size=512" \
    NODE_COMPILE_CACHE=/app/.compilacao \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/app/data/cestaria.db \
    UPLOAD_DIR=/app/data/arquivos
COPY --from=dependencias /app/node_modules ./node_modules
COPY --from=dependencias /app/dist ./dist
COPY package.json ./
COPY src ./src
COPY scripts/aquecer-compilacao.ts ./scripts/
RUN /app/node_modules/.bin/node --disable-warning=ExperimentalWarning scripts/aquecer-compilacao.ts \
    && mkdir -p /app/data/arquivos && chown -R cestaria:cestaria /app/data /app/.compilacao
USER cestaria
VOLUME ["/app/data"]
EXPOSE 3000 4000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/app/node_modules/.bin/node", "-e", "fetch('http://127.0.0.1:' + (process.env.CESTAS_PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# O comando por trás de `npm start`, sem o npm: o SIGTERM chega ao servidor, que termina as
# requisições em andamento antes de sair.
ENTRYPOINT ["/app/node_modules/.bin/node", "--disable-warning=ExperimentalWarning", "src/main.ts"]
CMD ["serve"]
