// Bundles the agent into one file, dist/vigil-agent.mjs, that needs only Node.js 20.18 or newer on the host.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

// undici (the HTTP checker's client) needs 20.18: an older Node is told so before any bundled module is evaluated.
const nodeCheck =
  "const [__vigilMajor, __vigilMinor] = process.versions.node.split('.').map(Number);\n" +
  'if (__vigilMajor < 20 || (__vigilMajor === 20 && __vigilMinor < 18)) {\n' +
  '  process.stderr.write(`vigil-agent: Node.js 20.18 or newer is required (found ${process.version})\\n`);\n' +
  '  process.exit(1);\n' +
  '}';

await build({
  entryPoints: [join(here, 'src/main.ts')],
  outfile: join(here, 'dist/vigil-agent.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.18',
  minify: true,
  legalComments: 'none',
  // Assigned checks run the server's own checkers (`@vigil/server/*` is server/src): a check means the same from an agent.
  alias: { '@vigil/proto': join(here, '../proto/src/index.ts'), '@vigil/server': join(here, '../server/src') },
  define: { AGENT_VERSION: JSON.stringify(version) },
  // systeminformation and the database drivers are CommonJS and call require(); an ESM bundle needs one.
  banner: {
    js: `#!/usr/bin/env node\n${nodeCheck}\nimport { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);`,
  },
  logLevel: 'warning',
});
