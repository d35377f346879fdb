import { renderMarkdown } from '../common/markdown';
import type { DraftCandidate } from './incident-drafts.repository';
import { draftTexts as sut } from './incident-drafts.service';

const candidate = (name: string, since: string, id = 1): DraftCandidate => ({
  page_id: 1,
  monitor_id: id,
  agent_id: null,
  name,
  since: new Date(since),
});

describe("an incident draft's texts (draftTexts)", () => {
  it('names one component in the title and says since when, in UTC', () => {
    expect(sut([candidate('Shop', '2026-03-10T08:15:42Z')])).toEqual({
      title: 'Shop is unavailable',
      message: 'Unavailable since 2026-03-10 08:15 UTC: ` Shop `',
    });
  });

  it('counts several components, from the earliest failure', () => {
    const texts = sut([candidate('Shop', '2026-03-10T08:15:00Z', 1), candidate('API', '2026-03-10T07:00:00Z', 2)]);
    expect(texts).toEqual({ title: '2 components are unavailable', message: 'Unavailable since 2026-03-10 07:00 UTC: ` Shop `, ` API `' });
  });

  it('lists twenty names and counts the rest', () => {
    const many = Array.from({ length: 25 }, (_, i) => candidate(`c${i}`, '2026-03-10T08:00:00Z', i + 1));
    expect(sut(many).message).toMatch(/` c19 ` and 5 more$/);
  });

  it.each([
    ['a link', '[x](https://evil.example) *y* <b>', '<code>[x](https://evil.example) *y* &lt;b&gt;</code>'],
    ['backticks', 'a ``b`` c`', '<code>a ``b`` c`</code>'],
    ['a bare URL', 'https://evil.example/x', '<code>https://evil.example/x</code>'],
  ])('keeps a name with %s literal', (_, name, shown) => {
    const { message } = sut([candidate(name, '2026-03-10T08:00:00Z')]);
    expect(renderMarkdown(message)).toBe(`<p>Unavailable since 2026-03-10 08:00 UTC: ${shown}</p>\n`);
  });
});
