import 'reflect-metadata';
import { createApp, listen } from './bootstrap';
import { AppConfig, ConfigError, loadConfig } from './config/config';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One clear line, no stack: the operator only needs to fix the named variable.
    process.stderr.write(`Vigil cannot start: ${error.message}\n`);
    process.exit(1);
  }
  const app = await createApp(config);
  await listen(app, config);
}

main().catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
    process.stderr.write(`Vigil cannot start: ${(error as Error).message} (is another Vigil running? set PORT)\n`);
    process.exit(1);
  }
  process.stderr.write(`Vigil failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
