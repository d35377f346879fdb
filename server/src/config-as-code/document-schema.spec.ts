import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDocumentJsonSchema } from '@vigil/proto';
import { DocumentInvalid, problemPath, readDocument, schemaProblems } from './document-schema';

describe('the configuration document schema', () => {
  it('is committed as docs/vigil.schema.json exactly as generated (npm run schema:config)', () => {
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'vigil.schema.json'), 'utf8'));
    expect(committed).toEqual(configDocumentJsonSchema());
  });

  it.each([
    ['/monitors/2/interval', 'monitors[2].interval'],
    ['/statusPages/0/groups/1/items/3', 'statusPages[0].groups[1].items[3]'],
    ['/version', 'version'],
    ['', '(document)'],
  ])('names %s as %s', (pointer, path) => {
    expect(problemPath(pointer)).toBe(path);
  });

  it('accepts a small document with a type field it does not list', () => {
    expect(schemaProblems({ version: 1, monitors: [{ key: 'broker', name: 'Broker', type: 'mqtt', mqttTopic: 'a/b' }] })).toEqual([]);
  });

  it('lists every path and problem of a wrong document', () => {
    const problems = schemaProblems({ version: 2, monitors: [{ key: 'UPPER', name: '', type: 'http' }], channels: [{ key: 'c' }] });
    const paths = problems.map((problem) => problem.path);
    expect(paths).toEqual(
      expect.arrayContaining(['version', 'monitors[0].key', 'monitors[0].name', 'channels[0].name', 'channels[0].config']),
    );
  });

  it('refuses YAML that is not YAML, and a document with too many aliases', () => {
    expect(() => readDocument('version: [1')).toThrow(/not a YAML document/);
    const laughs = [
      'a: &a [x, x]',
      ...Array.from(
        { length: 12 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(() => readDocument(laughs)).toThrow(/not a YAML document/);
  });

  it('answers a 400 with the problems as a list', () => {
    try {
      readDocument('version: 1\nmonitors: [{ key: a, name: A }]');
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(DocumentInvalid);
      expect((error as DocumentInvalid).getStatus()).toBe(400);
      expect((error as DocumentInvalid).getResponse()).toMatchObject({ success: false, problems: [{ path: 'monitors[0].type' }] });
    }
  });
});
