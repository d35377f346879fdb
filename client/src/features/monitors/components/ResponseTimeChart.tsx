import type { StatsPoint, StatsRange } from '@vigil/proto';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

interface ResponseTimeChartProps {
  points: StatsPoint[];
  range: StatsRange;
  language: string;
  labels: { average: string; slowest: string };
}

function tickFormatter(range: StatsRange, language: string) {
  const options: Intl.DateTimeFormatOptions = range === '24h' ? { hour: '2-digit', minute: '2-digit' } : { month: '2-digit', day: '2-digit' };
  const format = new Intl.DateTimeFormat(language, options);
  return (value: string) => format.format(new Date(value));
}

/**
 * Average and slowest response time per bucket. Kept in its own module, loaded lazily, so recharts is a separate
 * chunk that only the monitor detail page downloads.
 */
export default function ResponseTimeChart({ points, range, language, labels }: ResponseTimeChartProps) {
  const format = tickFormatter(range, language);
  const full = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
        <XAxis dataKey="time" tickFormatter={format} minTickGap={24} fontSize={12} stroke="var(--mantine-color-dimmed)" />
        <YAxis unit=" ms" width={72} fontSize={12} stroke="var(--mantine-color-dimmed)" allowDecimals={false} />
        <Tooltip
          labelFormatter={(value) => full.format(new Date(String(value)))}
          formatter={(value) => (value === null || value === undefined ? '-' : `${String(value)} ms`)}
          contentStyle={{ background: 'var(--mantine-color-body)', borderColor: 'var(--mantine-color-default-border)' }}
        />
        <Legend />
        <Line type="monotone" dataKey="avg_response_time" name={labels.average} stroke="var(--mantine-color-blue-6)" strokeWidth={2} dot={false} connectNulls />
        <Line
          type="monotone"
          dataKey="max_response_time"
          name={labels.slowest}
          stroke="var(--mantine-color-orange-5)"
          strokeDasharray="4 3"
          dot={false}
          connectNulls
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
