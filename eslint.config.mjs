// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NO_SCRIPTS = { group: ['**/scripts/*'], message: 'Import shared code from service/, not scripts/.' };
const NO_API = {
  group: ['**/api/*', '**/api'],
  message: 'api/ speaks HTTP and sits on top: activities/ and store/ never import from it.',
};
const NO_ACTIVITIES = {
  group: ['**/activities/*', '**/activities'],
  message:
    "activities/ holds the worker's Temporal adapters: call what they wrap (store/, webhooks/) instead.",
};
const NO_DRIVERS = {
  group: ['better-sqlite3', 'pg'],
  message: 'api/ holds no table, SQL or pool: open and query databases through store/.',
};

/**
 * Reads never wake a workflow (docs/records.md): the API, the service, the stores and the feed read the
 * contract read model, never a workflow query. The Temporal UI's queries stay registered for operators.
 */
const NO_WORKFLOW_QUERIES = [
  'error',
  {
    selector:
      'ImportDeclaration[source.value=/workflows\\/definitions$/] > ImportSpecifier[imported.name=/Query$/]',
    message: 'Reads come from the contract read model (store/records), never a workflow query.',
  },
  {
    selector: "CallExpression[callee.property.name='query'][callee.object.callee.property.name='getHandle']",
    message: 'Reads come from the contract read model (store/records), never a workflow query.',
  },
  {
    selector: "CallExpression[callee.property.name='query'][callee.object.name=/[hH]andle$/]",
    message: 'Reads come from the contract read model (store/records), never a workflow query.',
  },
  {
    selector: "CallExpression[callee.property.name='query'][callee.object.callee.name=/[hH]andle$/]",
    message: 'Reads come from the contract read model (store/records), never a workflow query.',
  },
  {
    selector: "MemberExpression[property.name='queryWorkflow'], CallExpression[callee.name='defineQuery']",
    message: 'Reads come from the contract read model (store/records), never a workflow query.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/**', '.temporal/**', '.data/**', '.build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/test return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // scripts/ holds entry points (installers, the test runner, the bundle build): what the service
  // shares with them lives in service/ or api/, never the other way round. The folders stand in
  // layers: api/ (HTTP) and activities/ (the worker's thin Temporal adapters) side by side, neither
  // importing the other, over webhooks/ (outbound delivery) and store/ (every database, the ledger and
  // the contract records included); nothing imports a layer above it, and only store/ opens a
  // database (service/postgres-server.ts only creates one).
  {
    files: ['service/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCRIPTS] }] },
  },
  {
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCRIPTS, NO_DRIVERS, NO_ACTIVITIES] }] },
  },
  {
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCRIPTS, NO_API] }] },
  },
  {
    files: ['webhooks/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_SCRIPTS, NO_API, NO_ACTIVITIES] }] },
  },
  {
    files: ['store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_SCRIPTS,
            NO_API,
            {
              group: ['**/activities/*', '**/service/*', 'hono', '@hono/*'],
              message: 'store/ is the bottom layer: it imports no activity, service or HTTP code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts', 'service/**/*.ts', 'store/**/*.ts', 'webhooks/**/*.ts', 'mcp/**/*.ts'],
    rules: { 'no-restricted-syntax': NO_WORKFLOW_QUERIES },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node builtins, drivers or non-workflow SDK parts.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'child_process', 'os', 'net', 'http', 'https'],
              message: 'Node builtins are not allowed in workflows/.',
            },
            {
              group: [
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
                '@temporalio/testing',
              ],
              message: 'Only @temporalio/workflow and @temporalio/common belong in workflows/.',
              allowTypeImports: true,
            },
            {
              group: ['better-sqlite3', 'pg', 'hono', '@hono/*', '**/temporal.config'],
              message: 'Side-effecting modules are not allowed in workflows/.',
              allowTypeImports: true,
            },
            {
              group: ['**/activities/**', '**/api/**', '**/store/**', '**/service/**'],
              message:
                'workflows/ is the ground floor: it imports no other layer, not even its types (the activities implement workflows/activity-interfaces/).',
            },
          ],
        },
      ],
    },
  },
);
