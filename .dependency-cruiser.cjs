// The import rules `npm run lint` keeps (docs/architecture.md, "Floors"). Run alone: `npm run lint:imports`.
const path = require('node:path');

const SERVER = '^packages/server/src/';
const TESTS = ['[.]test[.]tsx?$', '^packages/server/src/test/'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle anywhere: break it by moving what both sides need to a file (or floor) below both.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'ground-imports-no-feature',
      comment:
        "core/, db/ and i18n/ (the server's message catalogues) are the ground floor: they import no feature module (packages/server/src/modules/). Pass a " +
        'callback from the app assembly (api.ts, app.ts, context.ts) or move the read down.',
      severity: 'error',
      from: { path: `${SERVER}(core|db|i18n)/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/` },
    },
    {
      name: 'ground-imports-no-access',
      comment: 'core/ and db/ stand below the access floor (packages/server/src/access/) and do not import it.',
      severity: 'error',
      from: { path: `${SERVER}(core|db|i18n)/`, pathNot: TESTS },
      to: { path: `${SERVER}access/` },
    },
    {
      name: 'access-imports-no-feature',
      comment:
        'The access floor (viewer, guards, session cookie, viewer cache, joining-fee gate) imports no feature ' +
        'module: move the read it needs into access/ or core/.',
      severity: 'error',
      from: { path: `${SERVER}access/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/` },
    },
    {
      name: 'floors-import-no-assembly',
      comment: 'core/, db/ and access/ import nothing from where the app is assembled (the files at src/, scripts/).',
      severity: 'error',
      from: { path: `${SERVER}(core|db|i18n|access)/`, pathNot: TESTS },
      to: { path: `${SERVER}([^/]+[.]ts$|scripts/)`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'module-public-face',
      comment:
        'Another module is reached through its public face, packages/server/src/modules/<name>/index.ts, never ' +
        'through its files: export what you need from that index (docs/architecture.md, "Modules").',
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: { path: `${SERVER}modules/[^/]+/`, pathNot: [`${SERVER}modules/$1/`, `${SERVER}modules/[^/]+/index[.]ts$`] },
    },
    {
      name: 'assembly-uses-public-face',
      comment:
        'Where the app is assembled (src/*.ts, scripts/, test/), the e2e tests and the plugins reach a module ' +
        'through its index.ts too.',
      severity: 'error',
      from: { pathNot: [`${SERVER}modules/`, `${SERVER}(core|db|i18n|access)/`] },
      to: { path: `${SERVER}modules/[^/]+/`, pathNot: `${SERVER}modules/[^/]+/index[.]ts$` },
    },
    {
      name: 'no-foreign-repository',
      comment:
        "A module's repository (its SQL) is its own: no other module, and nothing outside the module, imports it. " +
        'Call the function its index.ts offers.',
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: { path: `${SERVER}modules/[^/]+/.*[.]repository[.]ts$`, pathNot: `${SERVER}modules/$1/` },
    },
    {
      name: 'no-repository-outside-modules',
      comment: "Nothing outside the modules imports a module's repository: go through the module's index.ts.",
      severity: 'error',
      from: { pathNot: `${SERVER}modules/` },
      to: { path: `${SERVER}modules/[^/]+/.*[.]repository[.]ts$` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/'] },
    // Type-only imports count: a circle of types is still two files that cannot be understood apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: path.join(__dirname, 'packages/server/tsconfig.json') },
    enhancedResolveOptions: {
      conditionNames: ['source', 'import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
    cache: false,
  },
};
