import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSensors } from './sensors';

/** Builds a hwmon tree: `{ hwmon0: { name: 'coretemp\n', temp1_input: '45000\n' } }`. */
function tree(root: string, chips: Record<string, Record<string, string>>): void {
  for (const [dir, files] of Object.entries(chips)) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, dir, file), text);
  }
}

describe('temperatures from hwmon', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'vigil-hwmon-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    [
      'a labelled sensor with its thresholds',
      {
        hwmon0: { name: 'coretemp\n', temp1_input: '45000\n', temp1_label: 'Package id 0\n', temp1_max: '80000\n', temp1_crit: '100000\n' },
      },
      [{ name: 'coretemp Package id 0', celsius: 45, high: 80, critical: 100 }],
    ],
    [
      'an unlabelled sensor named by its number',
      { hwmon1: { name: 'acpitz\n', temp2_input: '27850\n' } },
      [{ name: 'acpitz temp2', celsius: 27.9 }],
    ],
    [
      'sensors in numeric order, across chips in numeric order',
      {
        hwmon10: { name: 'nvme\n', temp1_input: '38000\n', temp1_label: 'Composite\n' },
        hwmon2: { name: 'k10temp\n', temp10_input: '50000\n', temp3_input: '40000\n' },
      },
      [
        { name: 'k10temp temp3', celsius: 40 },
        { name: 'k10temp temp10', celsius: 50 },
        { name: 'nvme Composite', celsius: 38 },
      ],
    ],
    [
      'two chips with one name, told apart by their directory',
      {
        hwmon3: { name: 'nvme\n', temp1_input: '30000\n', temp1_label: 'Composite\n' },
        hwmon4: { name: 'nvme\n', temp1_input: '31000\n', temp1_label: 'Composite\n' },
      },
      [
        { name: 'nvme Composite', celsius: 30 },
        { name: 'nvme Composite (hwmon4)', celsius: 31 },
      ],
    ],
    [
      'broken readings left out: out of range, not a number, empty; a threshold out of range dropped',
      {
        hwmon0: {
          name: 'it8721\n',
          temp1_input: '-128000\n',
          temp2_input: 'N/A\n',
          temp3_input: '',
          temp4_input: '255000\n',
          temp5_input: '61000\n',
          temp5_crit: '127000000\n',
        },
      },
      [{ name: 'it8721 temp5', celsius: 61 }],
    ],
    ['a chip without a name file, named by its directory', { hwmon7: { temp1_input: '33000\n' } }, [{ name: 'hwmon7 temp1', celsius: 33 }]],
    ['a chip with no temperature sensors (fans only)', { hwmon0: { name: 'nct6775\n', fan1_input: '1200\n' } }, []],
  ])('reads %s', async (_, chips, expected) => {
    tree(root, chips);
    await expect(readSensors(root)).resolves.toEqual(expected);
  });

  it('clips a long label to the bound the server accepts', async () => {
    tree(root, { hwmon0: { name: 'chip\n', temp1_input: '40000\n', temp1_label: 'x'.repeat(300) } });
    const [sensor] = (await readSensors(root))!;
    expect(sensor.name).toHaveLength(128);
  });

  it('keeps at most 64 sensors', async () => {
    const files: Record<string, string> = { name: 'many\n' };
    for (let i = 1; i <= 70; i += 1) files[`temp${i}_input`] = '40000\n';
    tree(root, { hwmon0: files });
    expect(await readSensors(root)).toHaveLength(64);
  });

  it('answers null where the host has no hwmon at all', async () => {
    await expect(readSensors(join(root, 'absent'))).resolves.toBeNull();
  });
});
