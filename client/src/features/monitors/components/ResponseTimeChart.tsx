import type { StatsPoint, StatsRange } from '@vigil/proto';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const RANGE_HOURS: Record<StatsRange, number> = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30, '90d': 24 * 90 };

interface ResponseTimeChartProps {
  points: StatsPoint[];
  range: StatsRange;
  /** Where the window ends (ms), decided when the points were read: rendering stays a function of its props. */
  end: number;
  language: string;
  labels: { average: string; slowest: string };
  /** A duration in the user's language, e.g. "120 ms" or "120 毫秒". */
  formatMs: (value: number) => string;
}

/**
 * Average and slowest response time per bucket over the whole range, so gaps without checks show as gaps. Kept in
 * its own module, loaded lazily, so recharts is a separate chunk that only the monitor detail page downloads.
 */
export default function ResponseTimeChart({ points, range, end, language, labels, formatMs }: ResponseTimeChartProps) {
  const start = end - RANGE_HOURS[range] * 3_600_000;
  const data = points.map((point) => ({
    time: Date.parse(point.time),
    average: point.avg_response_time,
    slowest: point.max_response_time,
  }));
  const tick = new Intl.DateTimeFormat(
    language,
    range === '24h' ? { hour: '2-digit', minute: '2-digit' } : { month: '2-digit', day: '2-digit' },
  );
  const full = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  // Lines need two points to show; a sparse series gets dots so a lone bucket is still visible.
  const dots = data.length < 12;
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
        <XAxis
          dataKey="time"
          type="number"
          scale="time"
          domain={[start, end]}
          tickFormatter={(value: number) => tick.format(value)}
          minTickGap={32}
          fontSize={12}
          stroke="var(--mantine-color-dimmed)"
        />
        <YAxis
          tickFormatter={(value: number) => formatMs(value)}
          width={80}
          fontSize={12}
          stroke="var(--mantine-color-dimmed)"
          allowDecimals={false}
        />
        <Tooltip
          labelFormatter={(value) => full.format(Number(value))}
          formatter={(value) => (typeof value === 'number' ? formatMs(value) : '-')}
          contentStyle={{ background: 'var(--mantine-color-body)', borderColor: 'var(--mantine-color-default-border)' }}
        />
        <Legend />
        <Line
          type="monotone"
          dataKey="average"
          name={labels.average}
          stroke="var(--mantine-color-blue-6)"
          strokeWidth={2}
          dot={dots}
          isAnimationActive={false}
        />
        <Line
          type="monotone"
          dataKey="slowest"
          name={labels.slowest}
          stroke="var(--mantine-color-orange-5)"
          strokeDasharray="4 3"
          dot={dots}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
