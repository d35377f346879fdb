import { Stack, Text } from '@mantine/core';
import type { AgentMetricPoint, AgentMetricsRange } from '@vigil/proto';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const RANGE_MS: Record<AgentMetricsRange, number> = { '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 };

export interface AgentChartLabels {
  usage: string;
  network: string;
  cpu: string;
  memory: string;
  disk: string;
  rx: string;
  tx: string;
}

interface AgentMetricsChartProps {
  points: AgentMetricPoint[];
  range: AgentMetricsRange;
  /** Where the window ends (ms), decided when the points were read: rendering stays a function of its props. */
  end: number;
  language: string;
  labels: AgentChartLabels;
  formatPercent: (value: number) => string;
  formatRate: (value: number) => string;
}

const tooltipStyle = { background: 'var(--mantine-color-body)', borderColor: 'var(--mantine-color-default-border)' };
const axis = { fontSize: 12, stroke: 'var(--mantine-color-dimmed)' };

/**
 * CPU, memory and disk percentages, and network in and out, over the whole range so quiet spells show as gaps. In
 * its own module, loaded lazily, so recharts is a chunk only the detail pages download.
 */
export default function AgentMetricsChart({ points, range, end, language, labels, formatPercent, formatRate }: AgentMetricsChartProps) {
  const start = end - RANGE_MS[range];
  const data = points.map((point) => ({ ...point, time: Date.parse(point.time) }));
  const short = range === '1h' || range === '24h';
  const tick = new Intl.DateTimeFormat(language, short ? { hour: '2-digit', minute: '2-digit' } : { month: '2-digit', day: '2-digit' });
  const full = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' });
  // Lines need two points to show; a sparse series gets dots so a lone report is still visible.
  const dots = data.length < 12;
  const xAxis = (
    <XAxis
      dataKey="time"
      type="number"
      scale="time"
      domain={[Math.min(start, data[0]?.time ?? start), end]}
      tickFormatter={(value: number) => tick.format(value)}
      minTickGap={32}
      {...axis}
    />
  );
  const line = (key: string, name: string, color: string) => (
    <Line
      type="monotone"
      dataKey={key}
      name={name}
      stroke={color}
      strokeWidth={2}
      dot={dots}
      isAnimationActive={false}
      connectNulls={false}
    />
  );

  return (
    <Stack gap="lg">
      <div>
        <Text size="sm" fw={500} mb="xs">
          {labels.usage}
        </Text>
        <ResponsiveContainer width="100%" height={240}>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
            {xAxis}
            <YAxis domain={[0, 100]} tickFormatter={(value: number) => `${value}%`} width={48} {...axis} />
            <Tooltip
              labelFormatter={(value) => full.format(Number(value))}
              formatter={(value) => (typeof value === 'number' ? formatPercent(value) : '-')}
              contentStyle={tooltipStyle}
            />
            <Legend />
            {line('cpu', labels.cpu, 'var(--mantine-color-blue-6)')}
            {line('memory', labels.memory, 'var(--mantine-color-grape-6)')}
            {line('disk', labels.disk, 'var(--mantine-color-teal-6)')}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div>
        <Text size="sm" fw={500} mb="xs">
          {labels.network}
        </Text>
        <ResponsiveContainer width="100%" height={200}>
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--mantine-color-default-border)" />
            {xAxis}
            <YAxis tickFormatter={(value: number) => formatRate(value)} width={88} {...axis} />
            <Tooltip
              labelFormatter={(value) => full.format(Number(value))}
              formatter={(value) => (typeof value === 'number' ? formatRate(value) : '-')}
              contentStyle={tooltipStyle}
            />
            <Legend />
            {line('rx', labels.rx, 'var(--mantine-color-green-6)')}
            {line('tx', labels.tx, 'var(--mantine-color-orange-6)')}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </Stack>
  );
}
