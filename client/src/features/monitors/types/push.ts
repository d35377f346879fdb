/** The push URL of a monitor (`GET` or `POST /api/push/{token}`, public), as a caller uses it. */
export function pushUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/api/push/${encodeURIComponent(token)}`;
}

/** A cron schedule at least as frequent as the interval: every n minutes, every n hours, or daily. */
export function cronSchedule(intervalSeconds: number): string {
  const minutes = Math.max(1, Math.floor(intervalSeconds / 60));
  if (minutes === 1) return '* * * * *';
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
  return '0 0 * * *';
}

export interface PushExamples {
  curl: string;
  cron: string;
  powershell: string;
}

/** Ready-to-paste calls: a one-off curl, a crontab line on the monitor's interval, and PowerShell for Windows tasks. */
export function pushExamples(url: string, intervalSeconds: number): PushExamples {
  const up = `${url}?status=up&msg=OK`;
  return {
    curl: `curl -fsS -m 10 --retry 3 "${up}"`,
    cron: `${cronSchedule(intervalSeconds)} curl -fsS -m 10 --retry 3 "${up}" > /dev/null 2>&1`,
    powershell: `Invoke-RestMethod -Uri "${up}" -Method Get -TimeoutSec 10`,
  };
}
