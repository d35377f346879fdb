import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

describe("the server process's node options", () => {
  it('are the same under npm start (scripts/server-node-args.mjs) and in the Docker image', () => {
    const script = readFileSync(join(ROOT, 'scripts/server-node-args.mjs'), 'utf8');
    const args = JSON.parse(/SERVER_NODE_ARGS = (\[.*\]);/.exec(script)![1].replace(/'/g, '"')) as string[];
    const command = JSON.parse(/^CMD (\[.*\])$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1]) as string[];
    expect(args.length).toBeGreaterThan(0);
    expect(command).toEqual(['node', ...args, 'server/dist/main.js']);
  });
});
