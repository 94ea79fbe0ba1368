import { normalizeForMatch } from '../../contract/text-match';

export interface MatchableRule {
  trigger: string;
  isActive: boolean;
}

/**
 * Finds the rule whose trigger appears in a message as a whole word or phrase, ignoring case,
 * accents and punctuation ('preço' matches 'Qual o PRECO?', 'oi' does not match 'boido'); the
 * longest trigger wins, then the earlier rule. Built once per saved config, then each message costs
 * one normalisation and a substring test per active rule.
 */
export class RuleMatcher<R extends MatchableRule> {
  private readonly entries: Array<{ key: string; rule: R }>;

  constructor(rules: readonly R[]) {
    this.entries = rules
      .map((rule, index) => ({ rule, index, key: ` ${normalizeForMatch(rule.trigger)} ` }))
      .filter((e) => e.rule.isActive && e.key.trim() !== '')
      .sort((a, b) => b.key.length - a.key.length || a.index - b.index)
      .map(({ key, rule }) => ({ key, rule }));
  }

  get size(): number {
    return this.entries.length;
  }

  match(text: string): R | undefined {
    const haystack = ` ${normalizeForMatch(text)} `;
    if (haystack.length <= 2) return undefined;
    for (const e of this.entries) if (haystack.includes(e.key)) return e.rule;
    return undefined;
  }
}

/** Whether a message asks for a person ('quero falar com um atendente', 'humano'). */
export function asksForPerson(text: string): boolean {
  const haystack = ` ${normalizeForMatch(text)} `;
  return PERSON_WORDS.some((w) => haystack.includes(` ${w} `));
}
const PERSON_WORDS = ['atendente', 'humano', 'pessoa de verdade', 'falar com alguem', 'atendimento humano'];
