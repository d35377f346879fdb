import { badgeSvg } from './badge';

describe('status badge', () => {
  it('draws name, status and uptime in the status colour', () => {
    const svg = badgeSvg('API', 'up', 99.5);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>API</text>');
    expect(svg).toContain('>up 99.50%</text>');
    expect(svg).toContain('#2f9e44');
    expect(badgeSvg('API', 'down', 0)).toContain('#e03131');
  });

  it('escapes names so they cannot inject markup', () => {
    const svg = badgeSvg('<script>alert(1)</script> & "x"', 'pending', 100);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;');
    expect(svg).toContain('&#38;');
  });
});
