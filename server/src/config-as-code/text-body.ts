import type { Request } from 'express';
import { ApiException } from '../common/api-exception';
import { HttpStatus } from '@nestjs/common';

/**
 * The body as text: a JSON body the JSON parser already read comes back as its JSON (YAML reads it alike); any other
 * type (application/yaml, text/plain) is read here, refused past `limit` bytes.
 */
export async function readTextBody(req: Request, limit: number): Promise<string> {
  if (req.body !== undefined && typeof req.body === 'object' && Object.keys(req.body as object).length) return JSON.stringify(req.body);
  if (req.readableEnded) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, 'request.bodyTooLarge');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
