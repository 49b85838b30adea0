import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['.tmp/**', '**/dist/**', '**/node_modules/**', 'data/**', '**/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Features talk through packages/shared or lib/, never through each other's internals.
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../features/*/*', '../*/api/*'], message: 'Import another feature only through packages/shared or lib/.' }] }],
    },
  },
  {
    // The server's house runs one way (decision 045): the feature modules use the core, never the other way round.
    // The core declares ports (tracking/ports.ts, ClusterPorts) and composition.ts passes the modules' implementations.
    // Tests wire whole apps, so they may reach any layer.
    files: ['apps/server/src/{tracking,cluster,plugins,sessions,lib,db,simulator}/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/tracking/tracking-test-kit.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)modules(/|$)',
              message: 'The core knows no feature module: declare a port here and pass the module in from apps/server/src/composition.ts (decision 045).',
            },
          ],
        },
      ],
    },
  },
  {
    // A test reads audit rows in the order they were written (decision 090): PostgreSQL promises no order without
    // `order by`, and tests that compared lists of audit actions failed when a plan returned them otherwise.
    files: ['apps/server/**/*.test.ts', 'apps/server/test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "AwaitExpression:has(CallExpression[callee.property.name='from'][arguments.0.name='auditLog']):not(:has(CallExpression[callee.property.name='orderBy'])):not(:has(CallExpression[callee.name='count']))",
          message: 'Read audit rows with .orderBy(auditLog.id): without it PostgreSQL may return them in any order.',
        },
      ],
    },
  },
);
