/**
 * pt-BR formatting shared by the browser and the server's documents (SPEC §9, DESIGN §4): one
 * definition of how a count, a percentage, a day and a delivery rate's colour are written.
 */

const decimal1 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/** 1.234 (pt-BR grouping). */
export function formatNumber(value: number): string {
  return integer.format(value);
}

/** Counts abbreviated with one decimal: 950 → '950', 1500 → '1,5K', 2_000_000 → '2,0M'. */
export function formatCount(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1_000_000 || Math.round(abs / 100) >= 10_000) return `${decimal1.format(value / 1_000_000)}M`;
  if (abs >= 1_000) return `${decimal1.format(value / 1_000)}K`;
  return integer.format(value);
}

/** 87.5 → '87,5%'. */
export function formatPercent(value: number): string {
  return `${percent.format(value)}%`;
}

/** A calendar day 'aaaa-mm-dd' as 'dd/mm/aaaa'; anything else as it is. */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

/** Delivery-rate colour (SPEC §9): 90 % or more green, 70 % or more yellow, else red. */
export function deliveryRateTone(rate: number): 'green' | 'yellow' | 'red' {
  if (rate >= 90) return 'green';
  if (rate >= 70) return 'yellow';
  return 'red';
}
