import type { AgentDeviceSeries, AgentMetricsRange } from '@vigil/proto';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { deviceChartRows } from '../insight';

const RANGE_MS: Record<AgentMetricsRange, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

export interface DeviceChartLabels {
  read: string;
  write: string;
  busy: string;
  rx: string;
  tx: string;
}

interface AgentDeviceChartProps {
  series: AgentDeviceSeries;
  range: AgentMetricsRange;
  /** Where the window ends (ms), decided when the history was read. */
  end: number;
  language: string;
  labels: DeviceChartLabels;
  formatPercent: (value: number) => string;
  formatRate: (value: number) => string;
}

const tooltipStyle = { background: 'var(--mantine-color-body)', borderColor: 'var(--mantine-color-default-border)' };
const axis = { fontSize: 12, stroke: 'var(--mantine-color-dimmed)' };

/**
 * One disk's read/write rates with its busy % on a second axis, or one interface's in/out rates. Loaded lazily like
 * the agent's own charts, so recharts stays a chunk of the detail pages.
 */
export default function AgentDeviceChart({ series, range, end, language, labels, formatPercent, formatRate }: AgentDeviceChartProps) {
  const data = deviceChartRows(series.points);
  const start = end - RANGE_MS[range];
  const short = range === '1h' || range === '24h';
  const tick = new Intl.DateTimeFormat(language, short ? { hour: '2-digit', minute: '2-digit' } : { month: '2-digit', day: '2-digit' });
  const full = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  const dots = data.length < 12;
  const disk = series.kind === 'disk';
  const line = (key: string, name: string, color: string, yAxisId = 'rate') => (
    <Line type="monotone" dataKey={key} name={name} stroke={color} strokeWidth={2} dot={dots} isAnimationActive={false} yAxisId={yAxisId} />
  );
  return (
    <ResponsiveContainer width="100%" height={200}>
      <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
        <XAxis
          dataKey="at"
          type="number"
          scale="time"
          domain={[Math.min(start, data[0]?.at ?? start), end]}
          tickFormatter={(value: number) => tick.format(value)}
          minTickGap={32}
          {...axis}
        />
        <YAxis yAxisId="rate" tickFormatter={(value: number) => formatRate(value)} width={80} {...axis} />
        {disk && (
          <YAxis yAxisId="busy" orientation="right" domain={[0, 100]} tickFormatter={(value: number) => `${value}%`} width={44} {...axis} />
        )}
        <Tooltip
          labelFormatter={(value) => full.format(Number(value))}
          formatter={(value, _name, item) =>
            typeof value !== 'number' ? '-' : item.dataKey === 'busy' ? formatPercent(value) : formatRate(value)
          }
          contentStyle={tooltipStyle}
        />
        <Legend />
        {disk ? line('read', labels.read, 'var(--mantine-color-blue-6)') : line('rx', labels.rx, 'var(--mantine-color-green-6)')}
        {disk ? line('write', labels.write, 'var(--mantine-color-orange-6)') : line('tx', labels.tx, 'var(--mantine-color-orange-6)')}
        {disk && line('busy', labels.busy, 'var(--mantine-color-grape-6)', 'busy')}
      </LineChart>
    </ResponsiveContainer>
  );
}
