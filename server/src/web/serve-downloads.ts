import type { Express, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MESSAGES } from '@vigil/proto';

/** The agent program and its install scripts, at the root (`/downloads/...`) so install one-liners stay short. */
const FILES: Record<string, { path: string[]; type: string }> = {
  'vigil-agent.mjs': { path: ['dist', 'vigil-agent.mjs'], type: 'text/javascript; charset=utf-8' },
  'install.sh': { path: ['install', 'install.sh'], type: 'text/x-shellscript; charset=utf-8' },
  'install.ps1': { path: ['install', 'install.ps1'], type: 'text/plain; charset=utf-8' },
};

export function serveDownloads(app: Express, agentDir: string): void {
  app.get('/downloads/:file', (req: Request, res: Response) => {
    const file = FILES[String(req.params.file)];
    if (!file) {
      res.status(404).json({ success: false, message: MESSAGES['request.notFound'] });
      return;
    }
    const full = join(agentDir, ...file.path);
    if (!existsSync(full)) {
      res.status(503).json({ success: false, message: MESSAGES['downloads.missing'] });
      return;
    }
    // Revalidated on every download (ETag), so an upgraded server hands out the new agent at once.
    res.sendFile(full, { headers: { 'Content-Type': file.type, 'Cache-Control': 'no-cache' } });
  });
}
