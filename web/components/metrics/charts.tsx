import { Bar, BarChart, CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { bestByReadRate, type DailyFigures, type HourFigures, type WeekdayFigures } from '#contract/metrics';
import { formatCount, formatDay, formatNumber, formatPercent } from '#web/lib/format';
import {
  botPerDaySummary,
  hasAny,
  messagesPerDaySummary,
  readRateByHourSummary,
  readRateByWeekdaySummary,
} from '#web/lib/metrics/chart-summaries';
import { hourLabel, hourRangeLabel, shortDay, weekdayName, weekdayShort } from '#web/lib/metrics/time-labels';
import { ChartCard, type ChartColumn } from './chart-card';

/** Series colours, as in the report PDF. */
const COLORS = {
  sent: '#128C7E',
  delivered: '#25D366',
  read: '#2563eb',
  botReplies: '#7c3aed',
  conversations: '#c2410c',
  rate: '#128C7E',
  rateBest: '#0b5d53',
} as const;

const AXIS = { fontSize: 12, fill: '#52525b' };
const GRID = '#e4e4e7';
const CHART_STYLE = { width: '100%', height: '100%' };
// The table beside each chart is the keyboard and screen-reader way in: the drawing itself stays out of the tab order.
const CHART_PROPS = { responsive: true, accessibilityLayer: false, style: CHART_STYLE } as const;
const TOOLTIP = {
  contentStyle: { borderRadius: 8, borderColor: GRID, fontSize: 12 },
  labelStyle: { color: '#18181b', fontWeight: 600 },
} as const;

const countTooltip = (value: unknown) => formatNumber(Number(value));
const percentTooltip = (value: unknown) => formatPercent(Number(value));

const dayColumn: ChartColumn<DailyFigures> = { label: 'Dia', cell: (d) => formatDay(d.day) };
const countColumn = <Row,>(label: string, get: (row: Row) => number): ChartColumn<Row> => ({
  label,
  cell: (row) => formatNumber(get(row)),
  numeric: true,
});

/** Lines of daily figures over the period's days (both per-day charts draw them the same way). */
function dailyLines(
  days: readonly DailyFigures[],
  series: ReadonlyArray<{ key: keyof DailyFigures; label: string; color: string }>,
) {
  return (
    <LineChart {...CHART_PROPS} data={[...days]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis dataKey="day" tickFormatter={shortDay} tick={AXIS} minTickGap={16} />
      <YAxis allowDecimals={false} tickFormatter={formatCount} tick={AXIS} width={44} />
      <Tooltip {...TOOLTIP} labelFormatter={(day) => formatDay(String(day))} formatter={countTooltip} />
      {series.map((s) => (
        <Line
          key={s.key}
          type="monotone"
          dataKey={s.key}
          name={s.label}
          stroke={s.color}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}

/** Campaign messages sent, delivered and read per day. */
export function MessagesPerDayChart({ days, description }: { days: readonly DailyFigures[]; description: string }) {
  const series = [
    { key: 'sent', label: 'Enviadas', color: COLORS.sent },
    { key: 'delivered', label: 'Entregues', color: COLORS.delivered },
    { key: 'read', label: 'Lidas', color: COLORS.read },
  ] as const;
  return (
    <ChartCard
      title="Mensagens por dia"
      description={description}
      summary={messagesPerDaySummary(days)}
      series={series}
      rows={days}
      rowKey={(d) => d.day}
      columns={[dayColumn, ...series.map((s) => countColumn<DailyFigures>(s.label, (d) => d[s.key]))]}
      empty={hasAny(days, ['sent']) ? undefined : 'Nenhuma mensagem enviada neste período.'}
      testId="chart-messages-per-day"
    >
      {dailyLines(days, series)}
    </ChartCard>
  );
}

/** Bot replies and conversations (contacts who wrote) per day. */
export function BotPerDayChart({ days, description }: { days: readonly DailyFigures[]; description: string }) {
  const series = [
    { key: 'botReplies', label: 'Respostas do bot', color: COLORS.botReplies },
    { key: 'conversations', label: 'Conversas', color: COLORS.conversations },
  ] as const;
  return (
    <ChartCard
      title="Respostas do bot e conversas por dia"
      description={description}
      summary={botPerDaySummary(days)}
      series={series}
      rows={days}
      rowKey={(d) => d.day}
      columns={[dayColumn, ...series.map((s) => countColumn<DailyFigures>(s.label, (d) => d[s.key]))]}
      empty={
        hasAny(days, ['botReplies', 'conversations']) ? undefined : 'Nenhuma resposta do bot ou conversa neste período.'
      }
      testId="chart-bot-per-day"
    >
      {dailyLines(days, series)}
    </ChartCard>
  );
}

const RATE_SERIES = [{ label: 'Taxa de leitura (lidas ÷ entregues)', color: COLORS.rate }];

function sendTimeColumns<Row extends HourFigures | WeekdayFigures>(first: ChartColumn<Row>): ChartColumn<Row>[] {
  return [
    first,
    countColumn<Row>('Enviadas', (r) => r.sent),
    countColumn<Row>('Entregues', (r) => r.delivered),
    countColumn<Row>('Lidas', (r) => r.read),
    { label: 'Taxa de leitura', cell: (r) => formatPercent(r.readRate), numeric: true },
  ];
}

/** Read rate by the São Paulo hour the messages were sent: the best time to send. */
export function ReadRateByHourChart({ byHour }: { byHour: readonly HourFigures[] }) {
  const best = bestByReadRate(byHour);
  return (
    <ChartCard
      title="Taxa de leitura por horário de envio"
      description={
        best
          ? `Horário de São Paulo. Melhor horário: ${hourRangeLabel(best.hour)} (${formatPercent(best.readRate)} de leitura).`
          : 'Horário de São Paulo: quanto das mensagens enviadas em cada hora foi lido.'
      }
      summary={readRateByHourSummary(byHour)}
      series={RATE_SERIES}
      rows={byHour}
      rowKey={(h) => String(h.hour)}
      columns={sendTimeColumns<HourFigures>({ label: 'Horário', cell: (h) => hourRangeLabel(h.hour) })}
      empty={byHour.some((h) => h.delivered > 0) ? undefined : 'Nenhuma mensagem entregue neste período.'}
      testId="chart-read-rate-by-hour"
    >
      <BarChart
        {...CHART_PROPS}
        // An entry's own `fill` colours its bar: the best hour stands out.
        data={byHour.map((h) => ({ ...h, fill: best && h.hour === best.hour ? COLORS.rateBest : COLORS.rate }))}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="hour" tickFormatter={(h) => hourLabel(Number(h))} tick={AXIS} interval="preserveStartEnd" />
        <YAxis domain={[0, 100]} tickFormatter={formatPercent} tick={AXIS} width={48} />
        <Tooltip {...TOOLTIP} labelFormatter={(h) => hourRangeLabel(Number(h))} formatter={percentTooltip} />
        <Bar
          dataKey="readRate"
          name="Taxa de leitura"
          fill={COLORS.rate}
          radius={[4, 4, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartCard>
  );
}

/** Read rate by the São Paulo weekday the messages were sent. */
export function ReadRateByWeekdayChart({ byWeekday }: { byWeekday: readonly WeekdayFigures[] }) {
  const best = bestByReadRate(byWeekday);
  return (
    <ChartCard
      title="Taxa de leitura por dia da semana"
      description={
        best
          ? `Horário de São Paulo. Melhor dia: ${weekdayName(best.weekday)} (${formatPercent(best.readRate)} de leitura).`
          : 'Horário de São Paulo: quanto das mensagens enviadas em cada dia da semana foi lido.'
      }
      summary={readRateByWeekdaySummary(byWeekday)}
      series={RATE_SERIES}
      rows={byWeekday}
      rowKey={(w) => String(w.weekday)}
      columns={sendTimeColumns<WeekdayFigures>({ label: 'Dia da semana', cell: (w) => weekdayName(w.weekday) })}
      empty={byWeekday.some((w) => w.delivered > 0) ? undefined : 'Nenhuma mensagem entregue neste período.'}
      testId="chart-read-rate-by-weekday"
    >
      <BarChart
        {...CHART_PROPS}
        data={byWeekday.map((w) => ({
          ...w,
          fill: best && w.weekday === best.weekday ? COLORS.rateBest : COLORS.rate,
        }))}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="weekday" tickFormatter={(w) => weekdayShort(Number(w))} tick={AXIS} />
        <YAxis domain={[0, 100]} tickFormatter={formatPercent} tick={AXIS} width={48} />
        <Tooltip {...TOOLTIP} labelFormatter={(w) => weekdayName(Number(w))} formatter={percentTooltip} />
        <Bar
          dataKey="readRate"
          name="Taxa de leitura"
          fill={COLORS.rate}
          radius={[4, 4, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ChartCard>
  );
}
