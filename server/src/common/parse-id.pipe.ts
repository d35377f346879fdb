import { Injectable, PipeTransform } from '@nestjs/common';
import { badRequest } from './api-exception';

/** Route ids are positive integers; anything else is the spec's 'invalid id'. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw badRequest('request.invalidId');
    return Number(value);
  }
}
