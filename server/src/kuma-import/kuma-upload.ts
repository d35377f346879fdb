/**
 * The uploaded file, from a raw body (`application/octet-stream`, the page's way) or the first file of a
 * `multipart/form-data` body (curl's `-F file=@kuma.db`), refused past KUMA_IMPORT_MAX_BYTES while it streams in.
 */
import { HttpStatus } from '@nestjs/common';
import { KUMA_IMPORT_MAX_BYTES } from '@vigil/proto';
import type { Request } from 'express';
import { ApiException } from '../common/api-exception';

/** Room for a multipart body's boundaries and part headers around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

async function readBody(req: Request, limit: number): Promise<Buffer> {
  // A JSON backup sent as application/json was read by the JSON parser already.
  if (req.body !== undefined && typeof req.body === 'object' && !Buffer.isBuffer(req.body) && Object.keys(req.body as object).length) {
    return Buffer.from(JSON.stringify(req.body));
  }
  if (req.readableEnded) return Buffer.alloc(0);
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, 'kumaImport.tooLarge');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, 'kumaImport.tooLarge');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The first part with a file name; its bytes sit between the blank line after its headers and the next boundary. */
export function multipartFile(body: Buffer, boundary: string): Buffer {
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1 && /filename=/i.test(part.subarray(0, headerEnd).toString('latin1'))) return part.subarray(headerEnd + 4);
    start = next;
  }
  return Buffer.alloc(0);
}

export async function readKumaUpload(req: Request): Promise<Uint8Array> {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1];
  const body = await readBody(req, KUMA_IMPORT_MAX_BYTES + (boundary ? MULTIPART_OVERHEAD : 0));
  const file = boundary ? multipartFile(body, boundary) : body;
  if (file.length > KUMA_IMPORT_MAX_BYTES) throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, 'kumaImport.tooLarge');
  return new Uint8Array(file.buffer, file.byteOffset, file.length);
}
