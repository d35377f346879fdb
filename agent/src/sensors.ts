import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_LIMITS, AgentSensorReport } from '@vigil/proto';

/** The server's bound on a sensor's name. */
const NAME_MAX = 128;
/** A sysfs attribute is one short line; more is not a sensor. */
const ATTRIBUTE_MAX = 256;

const byNumber = (a: string, b: string) => Number(/\d+/.exec(a)?.[0] ?? 0) - Number(/\d+/.exec(b)?.[0] ?? 0);

/** One sysfs attribute's text, or null when absent or unreadable (some sensors answer EIO while asleep). */
async function attribute(path: string): Promise<string | null> {
  try {
    const text = (await readFile(path, 'utf8')).slice(0, ATTRIBUTE_MAX).trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/** Millidegrees to degrees, one decimal; null when not a believable temperature. */
async function celsius(path: string): Promise<number | null> {
  const text = await attribute(path);
  if (text === null || !/^-?\d+$/.test(text)) return null;
  const value = Math.round(Number(text) / 100) / 10;
  return value >= AGENT_LIMITS.celsiusMin && value <= AGENT_LIMITS.celsiusMax ? value : null;
}

/**
 * Temperatures from Linux hwmon: every `hwmonN/tempM_input` under the root, named `<chip> <label>` (or
 * `<chip> tempM` when the chip gives no label), with the chip's own `tempM_max` and `tempM_crit`. A name that two chips
 * share gets its hwmon directory appended, so every sensor keeps a name of its own. Null when there is no hwmon root.
 */
export async function readSensors(root = '/sys/class/hwmon'): Promise<AgentSensorReport[] | null> {
  let chips: string[];
  try {
    chips = (await readdir(root)).filter((entry) => /^hwmon\d+$/.test(entry)).sort(byNumber);
  } catch {
    return null;
  }
  const sensors: AgentSensorReport[] = [];
  const names = new Set<string>();
  for (const dir of chips) {
    const chip = (await attribute(join(root, dir, 'name'))) ?? dir;
    let files: string[];
    try {
      files = await readdir(join(root, dir));
    } catch {
      continue;
    }
    const inputs = files.filter((file) => /^temp\d+_input$/.test(file)).sort(byNumber);
    for (const input of inputs) {
      const base = join(root, dir, input.replace(/_input$/, ''));
      const value = await celsius(`${base}_input`);
      if (value === null) continue;
      const label = (await attribute(`${base}_label`)) ?? input.replace(/_input$/, '');
      let name = `${chip} ${label}`.replace(/\s+/g, ' ').slice(0, NAME_MAX);
      if (names.has(name)) name = `${name.slice(0, NAME_MAX - dir.length - 3)} (${dir})`;
      if (names.has(name)) continue;
      names.add(name);
      const [high, critical] = await Promise.all([celsius(`${base}_max`), celsius(`${base}_crit`)]);
      sensors.push({ name, celsius: value, ...(high === null ? {} : { high }), ...(critical === null ? {} : { critical }) });
      if (sensors.length === AGENT_LIMITS.sensorsMax) return sensors;
    }
  }
  return sensors;
}
