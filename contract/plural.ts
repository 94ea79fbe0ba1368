/**
 * Counts written with their noun in pt-BR: '1 contato', '2 contatos', '1.234 contatos'.
 *
 * The form comes from `Intl.PluralRules('pt-BR')`, with one exception: CLDR files 0 under 'one'
 * for Portuguese (the integer part 0 or 1), but Brazilian writing says "0 contatos", so zero takes
 * the plural. CLDR's 'many' (whole millions, as in "1 milhão de contatos") also takes the plural:
 * our counts are written as digits ('1.000.000 contatos').
 * See docs/decisions/012-counts-in-pt-br-and-small-screens.md.
 */
import { formatNumber } from './format';

const rules = new Intl.PluralRules('pt-BR');

/** The noun (or phrase) agreeing with `n`: `one` for 1, `other` for 0 and everything else. */
export function pluralForm(n: number, one: string, other: string): string {
  return n !== 0 && rules.select(n) === 'one' ? one : other;
}

/** `n` in pt-BR digits followed by the agreeing form: countLabel(1234, 'contato', 'contatos') → '1.234 contatos'. */
export function countLabel(n: number, one: string, other: string): string {
  return `${formatNumber(n)} ${pluralForm(n, one, other)}`;
}
