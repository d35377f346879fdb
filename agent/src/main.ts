import { hostname } from 'node:os';
import { Collector } from './collector';
import { defaultConfigPath, loadConfig, saveConfig } from './config-file';
import { enroll, EXIT, FatalError } from './enroll';
import { log, warn } from './log';
import { AgentOptions, parseOptions, UsageError, USAGE } from './options';
import { createProbeCheckers, ProbeChecks } from './probes/checks';
import { ProbeRunner } from './probes/runner';
import { ReportStream } from './stream';

declare const AGENT_VERSION: string;
const VERSION = typeof AGENT_VERSION === 'string' ? AGENT_VERSION : '0.0.0-dev';

async function run(options: AgentOptions): Promise<void> {
  let interval = options.interval;
  const collector = new Collector({ ...options, interval, agentVersion: VERSION });
  const configPath = options.config ?? defaultConfigPath();
  let stored = loadConfig(configPath);
  if (stored && stored.server !== options.server) stored = null;
  if (!stored) {
    if (!options.token)
      throw new FatalError(`No credential in ${configPath} for ${options.server}: pass --token once to enrol this agent`, EXIT.usage);
    const enrolled = await enroll(options.server, options.token, await collector.hello());
    stored = { server: options.server, agent_id: enrolled.agent_id, credential: enrolled.credential };
    saveConfig(configPath, stored);
    interval = enrolled.interval || interval;
    log(`Enrolled as agent ${enrolled.agent_id}; credential saved to ${configPath}`);
  }

  // Checks the server assigns to this agent run from this host (see probes/).
  const checks = new ProbeChecks(createProbeCheckers(options.name ?? hostname()));
  const runner = new ProbeRunner({ run: (assignment) => checks.run(assignment) });
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  const stop = (code: number, message?: string) => {
    if (stopping) return;
    stopping = true;
    if (message) (code === 0 ? log : warn)(message);
    if (timer) clearTimeout(timer);
    runner.stop();
    void checks.close();
    stream.close();
    // Give the socket a moment to say goodbye, then leave whatever is still pending.
    process.exitCode = code;
    setTimeout(() => process.exit(code), 200).unref();
  };
  const stream = new ReportStream({
    server: options.server,
    credential: stored.credential,
    hello: () => collector.hello(),
    onInterval: (seconds) => {
      if (seconds !== interval) log(`Reporting every ${seconds} s (set by the server)`);
      interval = seconds;
    },
    onFatal: (error) => stop(error.exitCode, error.message),
    probes: { apply: (message) => runner.apply(message), results: runner.results },
  });
  process.once('SIGTERM', () => stop(0, 'Stopping (SIGTERM)'));
  process.once('SIGINT', () => stop(0, 'Stopping (SIGINT)'));

  // Reports keep their rhythm whatever the connection does; the first one comes at once.
  const tick = async () => {
    const started = Date.now();
    try {
      await stream.send(await collector.report());
    } catch (error) {
      warn(`Collecting failed: ${(error as Error).message}`);
    }
    if (!stopping) timer = setTimeout(() => void tick(), Math.max(0, interval * 1000 - (Date.now() - started)));
  };
  void tick();
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (argv.includes('--version')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  try {
    const options = parseOptions(argv, process.env);
    log(`vigil-agent ${VERSION} reporting to ${options.server} every ${options.interval} s`);
    await run(options);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`vigil-agent: ${error.message}\nRun vigil-agent --help for the options.\n`);
      process.exit(EXIT.usage);
    }
    if (error instanceof FatalError) {
      process.stderr.write(`vigil-agent: ${error.message}\n`);
      process.exit(error.exitCode);
    }
    process.stderr.write(`vigil-agent: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  }
}

void main();
