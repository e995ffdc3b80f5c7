// ESLint flat config: type-aware TypeScript rules, React hooks, accessibility, and the import
// zones of the layering (docs/decisions/008-lint-and-format.md). Formatting is Prettier's job.
import js from '@eslint/js'
import importPlugin from 'eslint-plugin-import'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

// pages → src, renderer → src, server → src; src imports none of them (as test/architecture.test.ts checks).
// Shared UI (src/components) imports no feature folder such as src/lead; public pages and the
// layout never import the back office.
// server/ by capability, in floors (docs/decisions/022-house-layout.md): a folder imports only the
// floors below it, never one above. The top-level files (app.ts, api-routes.ts, admin-routes.ts,
// main.ts) compose them.
const SERVER_FLOORS = [
  ['config'],
  ['data'],
  ['http'],
  ['content'],
  ['models', 'media', 'admin'],
  ['settings'],
  ['catalogue'],
  ['site'],
  ['leads'],
  ['model-api', 'privacy', 'tools'],
]
const FLOOR_MESSAGES = {
  config: 'The configuration reads the environment and imports no other server folder.',
  data: 'The connection and the schema import no capability: migrations are frozen, queries live with their owners.',
  http: 'HTTP plumbing imports no capability: what it reports comes through the app (decorators).',
  content: 'The content every capability reads imports none of them.',
}
const serverZones = SERVER_FLOORS.flatMap((floor, level) =>
  floor.map((folder) => ({
    target: `./server/${folder}`,
    from: [
      ...SERVER_FLOORS.slice(level + 1).flat(),
      // Folders of one floor do not import each other either.
      ...floor.filter((other) => other !== folder),
    ].map((other) => `./server/${other}`),
    message: FLOOR_MESSAGES[folder] ?? `server/${folder} imports only the floors below it.`,
  })),
)
const zones = [
  { target: './src', from: ['./pages', './renderer', './server', './test'], message: 'src/ is the ground floor.' },
  { target: './pages', from: ['./server', './test'], message: 'Pages reach data through pageContext.' },
  { target: './renderer', from: ['./server', './pages', './test'] },
  { target: './server', from: ['./pages', './renderer', './test'] },
  { target: './src/components', from: ['./src/lead', './src/admin'], message: 'Shared components import no feature.' },
  { target: ['./src/!(admin)/**', './src/*.ts'], from: './src/admin' },
  { target: ['./pages/!(admin)/**', './renderer'], from: ['./pages/admin', './src/admin'] },
  ...serverZones,
]

/** Dates are formatted with an explicit locale and time zone. */
const LOCALE_STRING = {
  selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/][arguments.length=0]',
  message: 'Pass the locale (ru-RU) and time zone: the server and the browser differ.',
}
/** Pages read the query through urlParsed, which shows only what their pageQuery declares. */
const WHOLE_URL =
  'urlOriginal carries every query parameter; read pageContext.urlParsed (only the pageQuery ones, renderer/page-query.ts).'

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', '.test-tmp/**', 'node_modules/**', 'coverage/**', '**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import/no-restricted-paths': ['error', { zones }],
      'import/no-default-export': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Fastify plugins and hooks are async by contract, awaited or not.
      '@typescript-eslint/require-await': 'off',
      // Values from JSON are stringified on purpose (CSV cells, query strings, messages).
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'no-restricted-syntax': ['error', LOCALE_STRING],
      // A function is read in one sitting: a longer one is split by its steps (a screen by its
      // sections, an import by its phases), not moved about to keep a file under 300 lines.
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A page sees the query parameters its pageQuery declares and no other (docs/decisions/012-page-cache.md).
    files: ['pages/**', 'renderer/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        LOCALE_STRING,
        { selector: "MemberExpression[property.name='urlOriginal']", message: WHOLE_URL },
        { selector: "ObjectPattern > Property[key.name='urlOriginal']", message: WHOLE_URL },
      ],
    },
  },
  {
    // Config files and Vike's own files need their default export.
    files: ['vite.config.ts', 'vitest.config.ts', 'eslint.config.js', '**/+*.ts', '**/+*.tsx'],
    rules: { 'import/no-default-export': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // A describe block holds its cases.
      'max-lines-per-function': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
)
