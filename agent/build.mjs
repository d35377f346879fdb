// Bundles the agent into one file, dist/vigil-agent.mjs, that needs only Node >= 18 on the host.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

await build({
  entryPoints: [join(here, 'src/main.ts')],
  outfile: join(here, 'dist/vigil-agent.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node18',
  minify: true,
  legalComments: 'none',
  alias: { '@vigil/proto': join(here, '../proto/src/index.ts') },
  define: { AGENT_VERSION: JSON.stringify(version) },
  // systeminformation is CommonJS and calls require(); an ESM bundle needs one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __vigilCreateRequire } from 'node:module';\nconst require = __vigilCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
