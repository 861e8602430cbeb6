import { useEffect, useState, type FormEvent } from 'react';
import { ErroApi, mensagemDe } from '../api.ts';
import { Campo, ComCarga, Falha, Pagina, useCarga } from '../componentes.tsx';
import {
  atualizarMercado,
  criarMercado,
  lerMercado,
  listarContas,
  type Conta,
  type EntradaMercado,
  type Mercado,
} from '../consultas.ts';
import { deCentavos, decimalLegivel, erroDoValor, paraCentavos } from '../dinheiro.ts';
import { Link, navegar } from '../navegacao.tsx';
import { podeAdministrarMercado } from '../perfis.ts';
import { useUsuarioLogado } from '../sessao.tsx';
import { tipoDeMercado, tiposDeMercado, type TipoMercado } from '../tipos-de-mercado.ts';

interface Valores {
  nome: string;
  descricao: string;
  tipo: TipoMercado;
  taxaAdministrativa: string;
  valorMaximoCesta: string;
  adminId: string;
  ativo: boolean;
}

type Erros = Partial<Record<keyof Valores, string>>;

function valoresDe(m: Mercado | null, meuId: string): Valores {
  return {
    nome: m?.nome ?? '',
    descricao: m?.descricao ?? '',
    tipo: m?.tipo ?? 'venda_direta',
    taxaAdministrativa: m?.taxaAdministrativa === null || m === null ? '' : decimalLegivel(m.taxaAdministrativa),
    valorMaximoCesta: m?.valorMaximoCesta === null || m === null ? '' : decimalLegivel(m.valorMaximoCesta),
    adminId: m?.adminId ?? meuId,
    ativo: m?.ativo ?? true,
  };
}

const DECIMAL = /^\d{1,9}([.,]\d{1,2})?$/;

/** What the browser can tell before asking the server (which checks everything again). */
function conferir(v: Valores): Erros {
  const erros: Erros = {};
  if (v.nome.trim() === '') erros.nome = 'Informe o nome do mercado';
  if (v.taxaAdministrativa.trim() !== '' && !DECIMAL.test(v.taxaAdministrativa.trim()))
    erros.taxaAdministrativa = 'Use um número com até 2 casas, como 2,50';
  if (tipoDeMercado(v.tipo).exigeValorMaximoCesta && v.valorMaximoCesta.trim() === '')
    erros.valorMaximoCesta = `Obrigatório quando o tipo é ${v.tipo}`;
  else if (v.valorMaximoCesta.trim() !== '') {
    const erro = erroDoValor(v.valorMaximoCesta);
    if (erro !== null) erros.valorMaximoCesta = erro;
  }
  return erros;
}

const decimalOuNulo = (t: string): string | null => (t.trim() === '' ? null : t.trim().replace(',', '.'));

/** The server names fields by path (`input.nome`); the form by its own keys. */
function errosDoServidor(e: ErroApi): Erros {
  const erros: Erros = {};
  for (const [caminho, mensagem] of Object.entries(e.campos)) {
    const campo = caminho.replace(/^input\./, '') as keyof Valores;
    erros[campo] = mensagem;
  }
  return erros;
}

interface PropsFormulario {
  readonly mercado: Mercado | null;
  readonly contas: readonly Conta[] | null;
}

function Formulario({ mercado, contas }: PropsFormulario) {
  const usuario = useUsuarioLogado();
  const administrador = usuario.acoes.gerirMercados;
  const [v, setV] = useState<Valores>(() => valoresDe(mercado, String(usuario.id)));
  const [erros, setErros] = useState<Erros>({});
  const [erroGeral, setErroGeral] = useState<string | null>(null);
  const [salvando, setSalvando] = useState(false);
  const mudar = <K extends keyof Valores>(campo: K, valor: Valores[K]) =>
    setV((atual) => ({ ...atual, [campo]: valor }));

  const enviar = async (e: FormEvent) => {
    e.preventDefault();
    const locais = conferir(v);
    setErros(locais);
    setErroGeral(null);
    if (Object.keys(locais).length > 0) {
      setErroGeral('Confira os campos marcados.');
      return;
    }
    const input: EntradaMercado = {
      nome: v.nome.trim(),
      descricao: v.descricao.trim() === '' ? null : v.descricao.trim(),
      tipo: v.tipo,
      taxaAdministrativa: decimalOuNulo(v.taxaAdministrativa),
      valorMaximoCesta: v.valorMaximoCesta.trim() === '' ? null : deCentavos(paraCentavos(v.valorMaximoCesta) ?? 0),
      // Only the Administrador changes who runs a market and whether it runs (the server agrees).
      ...(administrador ? { adminId: v.adminId, ...(mercado === null ? {} : { ativo: v.ativo }) } : {}),
    };
    setSalvando(true);
    try {
      const salvo = mercado === null ? await criarMercado(input) : await atualizarMercado(mercado.id, input);
      navegar(`/mercados/${salvo.id}`);
    } catch (erro) {
      if (erro instanceof ErroApi && Object.keys(erro.campos).length > 0) {
        setErros(errosDoServidor(erro));
        setErroGeral('Confira os campos marcados.');
      } else setErroGeral(mensagemDe(erro));
    } finally {
      setSalvando(false);
    }
  };

  const candidatos = (contas ?? []).filter((c) => podeAdministrarMercado(c.profiles) || c.id === v.adminId);
  return (
    <form onSubmit={(e) => void enviar(e)} noValidate className="formulario">
      {erroGeral === null ? null : <Falha mensagem={erroGeral} />}
      <Campo rotulo="Nome" erro={erros.nome}>
        {(p) => (
          <input
            {...p}
            type="text"
            required
            value={v.nome}
            onChange={(e) => mudar('nome', e.target.value)}
            autoComplete="off"
          />
        )}
      </Campo>
      <Campo rotulo="Descrição (opcional)" erro={erros.descricao}>
        {(p) => <textarea {...p} rows={3} value={v.descricao} onChange={(e) => mudar('descricao', e.target.value)} />}
      </Campo>
      <Campo rotulo="Tipo" erro={erros.tipo}>
        {(p) => (
          <select {...p} value={v.tipo} onChange={(e) => mudar('tipo', e.target.value)}>
            {tiposDeMercado().map((t) => (
              <option key={t.tipo} value={t.tipo}>
                {t.nome}
              </option>
            ))}
          </select>
        )}
      </Campo>
      <Campo
        rotulo="Taxa administrativa (%)"
        erro={erros.taxaAdministrativa}
        ajuda="De 0 a 100, com até 2 casas. Deixe vazio se não houver."
      >
        {(p) => (
          <input
            {...p}
            type="text"
            inputMode="decimal"
            value={v.taxaAdministrativa}
            onChange={(e) => mudar('taxaAdministrativa', e.target.value)}
          />
        )}
      </Campo>
      <Campo
        rotulo="Valor máximo da cesta (R$)"
        erro={erros.valorMaximoCesta}
        ajuda={`Obrigatório no tipo ${tiposDeMercado()
          .filter((t) => t.exigeValorMaximoCesta)
          .map((t) => t.nome.toLowerCase())
          .join(' ou ')}.`}
      >
        {(p) => (
          <input
            {...p}
            type="text"
            inputMode="decimal"
            value={v.valorMaximoCesta}
            onChange={(e) => mudar('valorMaximoCesta', e.target.value)}
          />
        )}
      </Campo>
      {administrador ? (
        <Campo rotulo="Quem administra" erro={erros.adminId} ajuda="Contas com o perfil AdminMercado ou Administrador.">
          {(p) => (
            <select {...p} value={v.adminId} onChange={(e) => mudar('adminId', e.target.value)}>
              {candidatos.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                  {c.email === null ? '' : ` (${c.email})`}
                </option>
              ))}
            </select>
          )}
        </Campo>
      ) : null}
      {administrador && mercado !== null ? (
        <div className="campo caixa">
          <input
            id="campo-ativo"
            type="checkbox"
            checked={v.ativo}
            onChange={(e) => mudar('ativo', e.target.checked)}
          />
          <label htmlFor="campo-ativo">Mercado ativo</label>
        </div>
      ) : null}
      <p className="acoes">
        <button type="submit" className="botao" disabled={salvando}>
          {salvando ? 'Salvando…' : mercado === null ? 'Criar mercado' : 'Salvar alterações'}
        </button>
        <Link para={mercado === null ? '/mercados' : `/mercados/${mercado.id}`} className="botao secundario">
          Cancelar
        </Link>
      </p>
    </form>
  );
}

/** /mercados/novo (Administrador) and /mercados/:id/editar (Administrador, or the market's AdminMercado). */
export function FormularioMercado({ id }: { readonly id: string | null }) {
  const usuario = useUsuarioLogado();
  const administrador = usuario.acoes.gerirMercados;
  const { estado, recarregar } = useCarga(async () => {
    const [mercado, contas] = await Promise.all([
      id === null ? null : lerMercado(id),
      administrador ? listarContas() : null,
    ]);
    return { mercado, contas, naoExiste: id !== null && mercado === null };
  }, [id, administrador]);
  const semPermissao = estado.fase === 'pronto' && estado.dados.mercado !== null && !estado.dados.mercado.acoes.editar;
  useEffect(() => {
    if (semPermissao) navegar('/unauthorized', { substituir: true });
  }, [semPermissao]);
  const titulo =
    id === null
      ? 'Novo mercado'
      : estado.fase === 'pronto' && estado.dados.mercado !== null
        ? `Editar ${estado.dados.mercado.nome}`
        : 'Editar mercado';
  return (
    <Pagina titulo={titulo}>
      <ComCarga estado={estado} recarregar={recarregar}>
        {(d) =>
          d.naoExiste ? (
            <div className="alerta" role="alert">
              <p>Mercado não encontrado.</p>
            </div>
          ) : semPermissao ? null : (
            <Formulario mercado={d.mercado} contas={d.contas} />
          )
        }
      </ComCarga>
    </Pagina>
  );
}
