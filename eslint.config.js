// ESLint flat config: neostandard (standard style: no semicolons, single quotes, a space before
// function parentheses) with TypeScript support. Its @stylistic rules are the formatter:
// `npx eslint --fix .`. `npm run lint` runs it; `npm test` runs that first.
import neostandard from 'neostandard'
import globals from 'globals'

export default [
  ...neostandard({
    ts: true,
    // what .gitignore leaves out (its root-anchored entries stay anchored here)
    ignores: [
      '**/node_modules/**',
      'wasm/build/**',
      '.tap/**',
      'data/**',
      '.ledger-test/**',
      'bench/results/**',
      'node-*/**',
      // AssemblyScript: decorators on functions and u64 literals are valid there, not in
      // TypeScript, so the parser fails on some files and other rules misread the rest
      'wasm/assembly/**'
    ]
  }),
  {
    // pages served to browsers (ES modules loaded by <script type="module">)
    files: ['**/web/**/*.js'],
    languageOptions: { globals: globals.browser }
  },
  {
    rules: {
      // wire fields are snake_case by the protocol, and algorithm names keep their own spelling
      // (sha3_512, bls12_381, ml_dsa87); new camelCase-breaking names are still caught
      camelcase: ['error', { allow: ['^UNSAFE_', '[sS]ha3_', '^bls12_381$', '^ml_dsa87$'], properties: 'never', ignoreDestructuring: true, ignoreGlobals: true }],
      // the interpreters leave their dispatch loop with `break loop`
      'no-labels': ['error', { allowLoop: true, allowSwitch: false }],
      // `void promise` marks a deliberate fire-and-forget (its errors are handled inside)
      'no-void': ['error', { allowAsStatement: true }],
      // the uPlot library's constructor is lower-case
      'new-cap': ['error', { newIsCap: true, newIsCapExceptions: ['uPlot'], capIsNew: false, properties: true }],
      // `let browser` declared before a teardown that reads it and assigned later stays `let`
      // (a `const` at the assignment would be in its temporal dead zone for the teardown)
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // tables of cases and records keep several properties per line
      '@stylistic/object-property-newline': 'off'
    }
  },
  {
    files: ['**/*.ts'],
    rules: {
      // `for await (const _ of stream)` drains a stream
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true, vars: 'all', varsIgnorePattern: '^_$' }],
      // TypeScript itself refuses a redeclaration; this rule only flags the project's
      // `const XErrorCode = {...}` + `type XErrorCode` pairs
      '@typescript-eslint/no-redeclare': 'off'
    }
  },
  {
    // test habits: one chromium launcher, seeded randomness
    files: ['test/**/*.ts'],
    ignores: ['test/helpers/browser.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'playwright-core', importNames: ['chromium', 'firefox', 'webkit'], message: 'launch the browser with launchChromium() from test/helpers/browser.ts' }] }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'test data comes from a seed: test/helpers/random.ts' }]
    }
  },
  {
    // the Keccak-f round is unrolled by hand: one declaration per lane pair keeps it readable
    files: ['core/crypto/keccak-js.ts'],
    rules: { 'one-var': 'off' }
  }
]
