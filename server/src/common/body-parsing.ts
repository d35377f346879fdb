import { json } from 'express';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BODY_LIMIT_BYTES, MESSAGES } from '@vigil/proto';

/** JSON bodies up to the limit; anything else about the body is the parser's to refuse. */
export const parseJsonBody: RequestHandler = json({ limit: BODY_LIMIT_BYTES });

/** Body-parser failures happen before Nest sees the request, so they get their answer here. */
export const bodyErrorHandler: ErrorRequestHandler = (error, _req, res, next) => {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    res.status(413).json({ success: false, message: MESSAGES['request.bodyTooLarge'], code: 'request.bodyTooLarge' });
  } else if (type === 'entity.parse.failed') {
    res.status(400).json({ success: false, message: MESSAGES['request.malformedJson'], code: 'request.malformedJson' });
  } else if (typeof (error as { status?: number }).status === 'number' && (error as { status: number }).status < 500) {
    res.status((error as { status: number }).status).json({ success: false, message: MESSAGES['validation.failed'] });
  } else {
    next(error);
  }
};
