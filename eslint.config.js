// Type-aware linting for every TypeScript file; import cycles are banned, and the server's module
// walls (docs/ARCHITECTURE.md, "Module walls") are enforced here so they stay.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVER = './apps/server/src';

/**
 * Which server modules each module may import (everything else under src/modules is off limits).
 * The graph is acyclic, so no two folders import each other. The platform (db, http, lib, platform)
 * imports no module; app.ts and main.ts, the composition root, import everything.
 */
export const MODULE_WALLS = {
  ml: [],
  pages: [],
  'search-index': [],
  billing: [],
  auth: ['billing', 'search-index'],
  embeddings: ['ml'],
  analysis: ['ml', 'pages'],
  links: ['analysis', 'billing', 'embeddings', 'ml', 'pages', 'search-index'],
  search: ['billing', 'embeddings', 'links', 'ml', 'search-index'],
  vault: ['links'],
  imports: ['billing', 'links', 'vault'],
  extension: [],
};

const moduleZones = Object.entries(MODULE_WALLS).flatMap(([module, allowed]) =>
  Object.keys(MODULE_WALLS)
    .filter((other) => other !== module && !allowed.includes(other))
    .map((other) => ({
      target: `${SERVER}/modules/${module}`,
      from: `${SERVER}/modules/${other}`,
      message: `the ${module} module may not import the ${other} module (module walls in eslint.config.js)`,
    })),
);

const platformZones = ['platform', 'db', 'http', 'lib'].map((folder) => ({
  target: `${SERVER}/${folder}`,
  from: `${SERVER}/modules`,
  // What migrations install or read: the search index's source, the vectors' byte order.
  except: folder === 'db' ? ['./search-index', './embeddings/vector-bytes.ts'] : [],
  message: `${folder}/ is platform code: it may not import a feature module`,
}));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/artifacts/**',
      'bench/.tmp/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        project: ['./tsconfig.tests.json', './apps/web/tsconfig.json', './apps/extension/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['./tsconfig.tests.json', './apps/web/tsconfig.json', './apps/extension/tsconfig.json'],
          conditionNames: ['@linkwise/source', 'types', 'import', 'default'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...moduleZones, ...platformZones] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/extension/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
