import { HttpStatus } from '@nestjs/common';
import { Value } from '@sinclair/typebox/value';
import { ConfigDocument, ConfigDocumentSchema, DocumentProblem, MESSAGES } from '@vigil/proto';
import { parseDocument as parseYaml } from 'yaml';
import { ApiException, badRequest } from '../common/api-exception';

/** Problems listed in one refusal at most (a document wrong everywhere is told the first ones). */
const PROBLEMS_MAX = 50;

/** `/monitors/2/interval` → `monitors[2].interval`. */
export function problemPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path = parts.map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : `${index ? '.' : ''}${part}`)).join('');
  return path || '(document)';
}

/** A 400 naming every path and its problem, in the message and as a list. */
export class DocumentInvalid extends ApiException {
  constructor(readonly problems: DocumentProblem[]) {
    const shown = problems.slice(0, PROBLEMS_MAX);
    const listed = shown.map(({ path, problem }) => `${path}: ${problem}`).join('; ');
    super(HttpStatus.BAD_REQUEST, 'config.documentInvalid', `${MESSAGES['config.documentInvalid']}: ${listed}`);
    this.problems = shown;
  }

  override getResponse(): object {
    return { ...(super.getResponse() as object), problems: this.problems };
  }
}

/** The schema's problems with `value` (empty: it conforms). */
export function schemaProblems(value: unknown): DocumentProblem[] {
  const problems = new Map<string, string>();
  for (const error of Value.Errors(ConfigDocumentSchema, value)) {
    // The first problem of a path says it best ("Expected required property", not then "Expected string").
    const path = problemPath(error.path);
    if (!problems.has(path)) problems.set(path, error.message);
    if (problems.size >= PROBLEMS_MAX) break;
  }
  return [...problems].map(([path, problem]) => ({ path, problem }));
}

/** YAML (or JSON, which is YAML) → a document that conforms to the schema, or a 400. */
export function readDocument(text: string): ConfigDocument {
  const parsed = parseYaml(text);
  if (parsed.errors.length) throw badRequest('config.yamlInvalid', `${MESSAGES['config.yamlInvalid']}: ${parsed.errors[0].message}`);
  let value: unknown;
  try {
    // Aliases bounded: a billion-laughs document is refused instead of expanded.
    value = parsed.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw badRequest('config.yamlInvalid', `${MESSAGES['config.yamlInvalid']}: ${(error as Error).message}`);
  }
  const problems = schemaProblems(value);
  if (problems.length) throw new DocumentInvalid(problems);
  return value as ConfigDocument;
}
