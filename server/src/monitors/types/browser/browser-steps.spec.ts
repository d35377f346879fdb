import { ADDED_TYPE_SPECS, BROWSER_STEPS_MAX, parseBrowserStep, validateFields } from '@vigil/proto';
import { readSteps, stepLabel } from './browser-steps';

const SPEC = ADDED_TYPE_SPECS.browser;
const settingsOf = (raw: Record<string, unknown>) => validateFields({ fields: SPEC.fields.filter((field) => !('column' in field)) }, raw);

describe('browser steps', () => {
  it.each([
    ['click #login', { action: 'click', selector: '#login' }],
    ['click   text=Sign in ', { action: 'click', selector: 'text=Sign in' }],
    ['fill input[name=q] = vigil monitor', { action: 'fill', selector: 'input[name=q]', value: 'vigil monitor' }],
    ['fill #password = a = b', { action: 'fill', selector: '#password', value: 'a = b' }],
    ['fill #empty = ', { action: 'fill', selector: '#empty', value: '' }],
    ['waitForText Welcome back', { action: 'waitForText', text: 'Welcome back' }],
    ['expectText 你好', { action: 'expectText', text: '你好' }],
    ['expectUrl /dashboard', { action: 'expectUrl', text: '/dashboard' }],
  ])('reads %j', (text, step) => {
    expect(parseBrowserStep(text)).toEqual(step);
  });

  it.each([
    ['an unknown action', 'hover #menu'],
    ['an action without its argument', 'click'],
    ['a fill without its value separator', 'fill #email me@example.com'],
    ['a fill without a selector', 'fill  = value'],
    ['an action in the wrong case', 'Click #go'],
    ['blank text', '   '],
  ])('refuses %s', (_case, text) => {
    expect(parseBrowserStep(text)).toBeNull();
  });

  it('accepts steps as an array or as lines of text, in order', () => {
    const lines = settingsOf({ steps: 'fill #q = vigil\nclick #go\nexpectText Results' });
    expect(lines).toEqual({ ok: true, config: { steps: ['fill #q = vigil', 'click #go', 'expectText Results'], ignoreTls: false } });
    const array = settingsOf({ steps: ['expectText Hello, world'] });
    expect(array).toEqual({ ok: true, config: { steps: ['expectText Hello, world'], ignoreTls: false } });
    // Typed as text, a step keeps its commas and semicolons, and a repeated step stays (next page, next page).
    const text = settingsOf({ steps: 'click #next\nclick #next\nexpectText Page 3; of 3, done' });
    expect(text).toEqual({
      ok: true,
      config: { steps: ['click #next', 'click #next', 'expectText Page 3; of 3, done'], ignoreTls: false },
    });
  });

  it('takes no steps as a plain page load', () => {
    expect(settingsOf({})).toEqual({ ok: true, config: { ignoreTls: false } });
  });

  it('names the steps field when a step is not one', () => {
    expect(settingsOf({ steps: ['click #go', 'hover #menu'] })).toMatchObject({ ok: false, field: 'steps' });
  });

  it(`refuses more than ${BROWSER_STEPS_MAX} steps`, () => {
    const steps = Array.from({ length: BROWSER_STEPS_MAX + 1 }, (_, index) => `click #b${index}`);
    expect(settingsOf({ steps })).toMatchObject({ ok: false, field: 'steps' });
    expect(settingsOf({ steps: steps.slice(1) })).toMatchObject({ ok: true });
  });

  it('reads stored steps for the checker and names them in failures', () => {
    const steps = readSteps({ steps: ['fill #q = vigil', 'expectText Results'] });
    expect(steps.map(stepLabel)).toEqual(['Step 1 (fill #q)', 'Step 2 (expectText "Results")']);
    expect(readSteps({})).toEqual([]);
  });

  it('fails by name on a stored step it cannot read (a row written before a rule changed)', () => {
    expect(() => readSteps({ steps: ['click #go', 'scroll down'] })).toThrow('Step 2 is not a step');
  });
});
