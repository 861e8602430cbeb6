import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'test-artifacts/', 'reports/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Migrations are typed against Kysely<any> on purpose: they must never depend on today's schema.
    files: ['src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // No request is cast: route schemas type req.params, req.query and req.body; a redraw reads its
    // params through parametrosDa, a multipart form through formularioComArquivo
    // (test/unit/consultas-declaradas.test.ts checks the same through the types).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'TSAsExpression:has(MemberExpression[object.name=/^(req|request)$/][property.name=/^(body|params|query|raw)$/]), TSAsExpression > Identifier.expression[name=/^(req|request)$/]',
          message:
            'Sem cast de requisição: declare o esquema da rota (params, querystring, body) ou leia com um auxiliar tipado.',
        },
      ],
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  {
    // The Mercados browser client (React, typed by web/mercados/tsconfig.json).
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      // Event handlers may be async: React ignores what they return, and each one shows its own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Nada de HTML cru: o React escapa o texto.',
        },
        {
          selector: "JSXAttribute[name.name='style']",
          message: 'Estilos ficam no estilo.css (a CSP e a consistência agradecem).',
        },
      ],
    },
  },
  {
    // Every request carries the session cookie (spec 5.B.10): only each client's api.ts may call fetch.
    files: ['web/**/*.{ts,tsx}'],
    ignores: ['web/mercados/api.ts', 'web/retirada/api.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use as funções de api.ts, que enviam credentials: include.' },
      ],
    },
  },
  {
    // Small progressive-enhancement scripts served to browsers as they are.
    files: ['src/**/static/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        document: 'readonly',
        HTMLElement: 'readonly',
        HTMLTextAreaElement: 'readonly',
        navigator: 'readonly',
        window: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        Intl: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
