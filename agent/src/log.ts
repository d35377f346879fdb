/** One line per event, timestamped; never given a token or credential. */
export function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${new Date().toISOString()} ${message}\n`);
}
