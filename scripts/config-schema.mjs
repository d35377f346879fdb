// Writes docs/vigil.schema.json from proto's ConfigDocumentSchema (the one source; a server spec checks they agree).
// Run after `npm run build -w proto`: npm run schema:config
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { configDocumentJsonSchema } = require('../proto/dist/index.js');
const file = fileURLToPath(new URL('../docs/vigil.schema.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(configDocumentJsonSchema(), null, 2)}\n`);
execFileSync(process.execPath, [require.resolve('prettier/bin/prettier.cjs'), '--write', file], { stdio: 'inherit' });
