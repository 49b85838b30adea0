import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureDir = (name) => `apps/web/src/features/${name}`;

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
    },
  },
  {
    // The web app's boundaries (decision 114): a feature reaches another only through its public entry (its index.ts);
    // what several features use lives in lib/, components/ or map/, which import no feature; and no import cycle.
    // app/ (router, layout, providers) composes the features and may import any of their files.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      // A loop closed by a lazy import() is a split chunk loaded later (the "More" menu), not an evaluation-order hazard.
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: repoRoot,
          zones: [
            ...webFeatures.map((name) => ({
              target: webFeatures.filter((other) => other !== name).map(featureDir),
              from: featureDir(name),
              except: ['./index.ts'],
              message: `Import the ${name} feature through its public entry (features/${name}/index.ts), or move what is shared to lib/ or components/.`,
            })),
            {
              target: ['apps/web/src/lib', 'apps/web/src/components', 'apps/web/src/map'],
              from: 'apps/web/src/features',
              message: 'Shared code (lib/, components/, map/) imports no feature: move what it needs out of the feature.',
            },
          ],
        },
      ],
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
