#!/usr/bin/env node
// Monitors as code from CI: `vigil plan|apply|export` against a Vigil server with an admin's API key (write scope).
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';

const HELP = `Usage: vigil <command> [file] --server URL --api-key KEY [options]

Commands:
  plan FILE      Show what applying FILE would create, update, delete (nothing is written)
  apply FILE     Apply FILE in one transaction (all or nothing)
  export [FILE]  Write the server's configuration as YAML (stdout without FILE)

Options:
  --server URL     The Vigil server (or VIGIL_SERVER)
  --api-key KEY    An admin's API key with the write scope (or VIGIL_API_KEY)
  --prune          plan/apply: also delete what the document's sections no longer list
  --secrets        export: write secrets instead of \${ENV_NAME} placeholders
  -h, --help       This text

A \${NAME} in FILE is replaced by the environment variable NAME where it is set (your CI's secrets); one left
as is keeps the secret the server holds, and is refused for an item the document creates.`;

const fail = (message) => {
  process.stderr.write(`vigil: ${message}\n`);
  process.exit(1);
};

/** A value that is all `${NAME}` → the environment's NAME, where set; the rest stays for the server (keeps the stored secret). */
export function substitute(text, env = process.env) {
  const resolve = (value) => {
    if (typeof value === 'string') {
      const name = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(value)?.[1];
      return name && env[name] !== undefined ? env[name] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
    return value;
  };
  return stringify(resolve(parse(text)));
}

async function call(server, key, method, path, body) {
  const response = await fetch(new URL(path, server.endsWith('/') ? server : `${server}/`), {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/yaml' } : {}) },
    body,
  });
  const text = await response.text();
  if (!response.ok) {
    let reply;
    try {
      reply = JSON.parse(text);
    } catch {
      fail(`${response.status} ${text.slice(0, 500)}`);
    }
    const problems = (reply.problems ?? []).map((p) => `  ${p.path}: ${p.problem}`).join('\n');
    fail(`${response.status} ${problems ? `${reply.message.split(':')[0]}:\n${problems}` : reply.message}`);
  }
  return text;
}

function printPlan(reply) {
  const { plan, dryRun } = JSON.parse(reply);
  const marks = { create: '+', update: '~', delete: '-', unchanged: '=' };
  for (const entry of plan.entries) {
    if (entry.action === 'unchanged') continue;
    const fields = entry.fields?.length ? ` (${entry.fields.join(', ')})` : '';
    process.stdout.write(`${marks[entry.action]} ${entry.kind} ${entry.key}${fields}\n`);
  }
  const { create, update, delete: deleted, unchanged } = plan.counts;
  process.stdout.write(
    `${dryRun ? 'Plan' : 'Applied'}: ${create} to create, ${update} to update, ${deleted} to delete, ${unchanged} unchanged\n`,
  );
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      'api-key': { type: 'string' },
      prune: { type: 'boolean', default: false },
      secrets: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, file] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const server = values.server ?? process.env.VIGIL_SERVER;
  const key = values['api-key'] ?? process.env.VIGIL_API_KEY;
  if (!server) fail('--server is required');
  if (!key) fail('--api-key is required');
  if (command === 'export') {
    const yaml = await call(server, key, 'GET', `api/export${values.secrets ? '?secrets=true' : ''}`);
    if (file) await writeFile(file, yaml);
    else process.stdout.write(yaml);
  } else if (command === 'plan' || command === 'apply') {
    if (!file) fail(`${command} needs a file`);
    const text = substitute(await readFile(file, 'utf8'));
    const query = new URLSearchParams({ dryRun: String(command === 'plan'), prune: String(values.prune) });
    printPlan(await call(server, key, 'POST', `api/apply?${query}`, text));
  } else fail(`unknown command ${command} (plan, apply, export)`);
}

main().catch((error) => fail(error.message));
