/**
 * E-mail: one's choice of optional notices (POST /profile/avisos; GraphQL `definirMeusAvisos`, whose
 * argument `recebe` is this command's `avisos`) and
 * the coordination's message to a cycle's people (POST /ciclo/:id/mensagem).
 */
import { TIPOS_DE_AVISO, TIPOS_OPCIONAIS, ehTipoDeAviso } from '../domain/avisos.ts';
import { ConjuntoDe, IdOpcional, Objeto, Texto } from './leitor/blocos.ts';
import { comandoDeObjeto } from './objeto.ts';

/** A mandatory kind is always received: a list that names it asks for nothing more (nor does a form's blank). */
const naoPede = (x: unknown): boolean =>
  x === '' || (typeof x === 'string' && ehTipoDeAviso(x) && !TIPOS_DE_AVISO[x].opcional);

export const EscolherAvisos = comandoDeObjeto(
  'EscolherAvisos',
  Objeto(
    {
      avisos: {
        ...ConjuntoDe(
          'Os avisos opcionais a receber, a lista inteira (vazia: nenhum); formulário: as caixas marcadas, depois de um valor vazio',
          TIPOS_OPCIONAIS,
        ),
        'x-falta': 'Campo obrigatório: a lista dos avisos que quer receber (pode ser vazia)',
      },
    },
    ['avisos'],
  ),
  {
    preparar: ({ avisos, ...resto }) =>
      avisos === undefined || avisos === null
        ? resto
        : { ...resto, avisos: (Array.isArray(avisos) ? avisos : [avisos]).filter((x) => !naoPede(x)) },
    montar: (c) => c.avisos ?? [],
  },
);

export const EnviarMensagem = comandoDeObjeto(
  'EnviarMensagem',
  Objeto(
    {
      assunto: Texto('Assunto', { obrigatorio: true, max: 120 }),
      texto: Texto('A mensagem', { obrigatorio: true, max: 5000 }),
      mercadoId: IdOpcional('Só aos compradores deste mercado do ciclo'),
    },
    ['assunto', 'texto'],
  ),
  { montar: (c) => ({ assunto: c.assunto, texto: c.texto, mercadoId: c.mercadoId ?? null }) },
);
