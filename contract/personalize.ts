import { CAMPAIGN_VARIABLES, type CampaignVariable } from './campaigns';

/**
 * Personalised campaign text: `{{nome}}`, `{{primeiro_nome}}`, `{{telefone}}`, `{{email}}`, each
 * with an optional fallback for a recipient without that value (`{{primeiro_nome|cliente}}`), and
 * spintax `{Olá|Oi|Bom dia}` (nested allowed). A brace group without `|` and a brace never closed
 * stay as written, so ordinary text with braces is not mangled; groups and variables inside them
 * still work.
 *
 * The parser reads the text once, left to right, with its own stack: it runs on every preview and
 * save and for every recipient at send time, in the browser too, so its cost must not depend on how
 * the braces are arranged (DESIGN §3). Nesting deeper than SPINTAX_MAX_DEPTH is plain text, and so
 * is a `|` beyond SPINTAX_MAX_OPTIONS options: that keeps the stack, the rendering recursion and
 * the work of turning an unclosed group back into text bounded.
 */
type Node =
  | { t: 'text'; v: string }
  /** `fallback` is null without `|`: an empty value is then written as nothing. */
  | { t: 'var'; name: string; fallback: string | null }
  | { t: 'alt'; options: Node[][] };

export const SPINTAX_MAX_DEPTH = 8;
export const SPINTAX_MAX_OPTIONS = 100;

/** Counts the parser's unit steps (characters read, nodes moved), so tests can hold it to linear time. */
export interface ParseMeter {
  steps: number;
}

const OPEN = 123; // {
const CLOSE = 125; // }
const BAR = 124; // |

/** As far as `{{ nome }}` may reach from its first brace (as the variable pattern always has). */
const VARIABLE_SPAN = 40;
/**
 * The most characters between a variable's `|` and its `}}`, spaces included: a fallback is a word
 * or two ('cliente', 'querido cliente'), and the bound keeps the look-ahead of each `{{` constant.
 */
export const VARIABLE_FALLBACK_MAX = 40;
/** How the forms that list the variables explain a fallback (pt-BR). */
export const VARIABLE_FALLBACK_HINT = `Quem não tiver o dado recebe a variável vazia; defina um valor padrão com {{primeiro_nome|cliente}} (até ${VARIABLE_FALLBACK_MAX} caracteres).`;
const SPACE = /\s/;
const LF = 10;
const CR = 13;

const isNameChar = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** A fallback is one line of text without braces or `|`, so it never swallows spintax or another variable. */
const isFallbackChar = (c: number) => c !== OPEN && c !== CLOSE && c !== BAR && c !== LF && c !== CR;

/**
 * `{{ name }}` or `{{ name | fallback }}` starting at `open`: the name in letters and `_` within
 * VARIABLE_SPAN characters, spaces allowed around it and around `|`, the fallback (trimmed) within
 * VARIABLE_FALLBACK_MAX more. Each look-ahead stops at the first character that cannot belong.
 */
function variableAt(
  s: string,
  open: number,
  meter: ParseMeter,
): { name: string; fallback: string | null; end: number } | null {
  if (s.charCodeAt(open + 1) !== OPEN) return null;
  let limit = Math.min(s.length, open + VARIABLE_SPAN);
  let j = open + 2;
  while (j < limit && SPACE.test(s[j])) j++;
  const nameStart = j;
  while (j < limit && isNameChar(s.charCodeAt(j))) j++;
  const nameEnd = j;
  while (j < limit && SPACE.test(s[j])) j++;
  let fallback: string | null = null;
  if (nameEnd > nameStart && j < limit && s.charCodeAt(j) === BAR) {
    const fallbackStart = ++j;
    limit = Math.min(s.length, fallbackStart + VARIABLE_FALLBACK_MAX + 2);
    while (j < limit && isFallbackChar(s.charCodeAt(j))) j++;
    fallback = s.slice(fallbackStart, j).trim();
  }
  meter.steps += j + 2 - open;
  if (nameEnd === nameStart || j + 1 >= limit || s.charCodeAt(j) !== CLOSE || s.charCodeAt(j + 1) !== CLOSE)
    return null;
  return { name: s.slice(nameStart, nameEnd).toLowerCase(), fallback, end: j + 2 };
}

function appendText(nodes: Node[], v: string): void {
  if (!v) return;
  const last = nodes[nodes.length - 1];
  if (last?.t === 'text') last.v += v;
  else nodes.push({ t: 'text', v });
}

/** An open group that turned out not to be spintax goes back into its parent as the text it was. */
function restoreGroup(parent: Node[], options: Node[][], closed: boolean, meter: ParseMeter): void {
  appendText(parent, '{');
  options.forEach((option, k) => {
    if (k > 0) appendText(parent, '|');
    for (const node of option) {
      meter.steps++;
      if (node.t === 'text') appendText(parent, node.v);
      else parent.push(node);
    }
  });
  if (closed) appendText(parent, '}');
}

export function parseMessage(message: string, meter: ParseMeter = { steps: 0 }): Node[] {
  const s = message;
  const root: Node[] = [];
  /** The open groups, innermost last. */
  const stack: Node[][][] = [];
  /** Braces opened beyond the depth limit and not yet closed: until they are, `|` and `}` are text. */
  let overflow = 0;
  let out = root;
  let textStart = 0;
  const flush = (end: number) => {
    if (end > textStart) appendText(out, s.slice(textStart, end));
  };
  const current = () => {
    const top = stack[stack.length - 1];
    return top ? top[top.length - 1] : root;
  };

  let i = 0;
  while (i < s.length) {
    meter.steps++;
    const c = s.charCodeAt(i);
    if (c === OPEN) {
      const variable = variableAt(s, i, meter);
      if (variable) {
        flush(i);
        out.push({ t: 'var', name: variable.name, fallback: variable.fallback });
        i = textStart = variable.end;
        continue;
      }
      if (overflow === 0 && stack.length < SPINTAX_MAX_DEPTH) {
        flush(i);
        out = [];
        stack.push([out]);
        i = textStart = i + 1;
        continue;
      }
      overflow++;
    } else if (c === CLOSE && overflow > 0) {
      overflow--;
    } else if (c === BAR && overflow === 0 && stack.length > 0) {
      const options = stack[stack.length - 1];
      if (options.length < SPINTAX_MAX_OPTIONS) {
        flush(i);
        out = [];
        options.push(out);
        i = textStart = i + 1;
        continue;
      }
    } else if (c === CLOSE && stack.length > 0) {
      flush(i);
      const options = stack.pop() as Node[][];
      out = current();
      if (options.length > 1) out.push({ t: 'alt', options });
      else restoreGroup(out, options, true, meter);
      i = textStart = i + 1;
      continue;
    }
    i++;
  }
  flush(s.length);
  while (stack.length > 0) {
    const options = stack.pop() as Node[][];
    restoreGroup(current(), options, false, meter);
  }
  return root;
}

/** Every `{{variable}}` of a parsed message, in order, inside spintax options too. */
function variablesOf(nodes: Node[]): Array<Extract<Node, { t: 'var' }>> {
  const found: Array<Extract<Node, { t: 'var' }>> = [];
  const walk = (list: Node[]) => {
    for (const n of list) {
      if (n.t === 'var') found.push(n);
      else if (n.t === 'alt') for (const option of n.options) walk(option);
    }
  };
  walk(nodes);
  return found;
}

/** The first unknown `{{variable}}` of a message, or null when every one is known. */
export function unknownVariable(message: string): string | null {
  const unknown = variablesOf(parseMessage(message)).find(
    (v) => !(CAMPAIGN_VARIABLES as readonly string[]).includes(v.name),
  );
  return unknown?.name ?? null;
}

/** The variables that write the recipient's name, the ones a contact without a name leaves empty. */
export const NAME_VARIABLES = ['nome', 'primeiro_nome'] as const satisfies readonly CampaignVariable[];

/**
 * Each `{{nome}}` and `{{primeiro_nome}}` of a message with its fallback (null when it has none):
 * what a recipient without a name gets in their place.
 */
export function nameVariables(message: string): Array<{ name: string; fallback: string | null }> {
  return variablesOf(parseMessage(message))
    .filter((v) => (NAME_VARIABLES as readonly string[]).includes(v.name))
    .map((v) => ({ name: v.name, fallback: v.fallback }));
}

export interface RecipientFields {
  name: string;
  phone: string;
  email?: string | null;
}

export function variableValues(r: RecipientFields): Record<CampaignVariable, string> {
  const name = r.name.trim();
  return {
    nome: name,
    primeiro_nome: name.split(/\s+/)[0] ?? '',
    telefone: r.phone,
    email: r.email ?? '',
  };
}

/** A small deterministic generator (mulberry32) seeded from a string: the same recipient always gets the same variant. */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The message as this recipient gets it: variables filled, one option of each spintax group chosen.
 * An empty value (a contact without a name or e-mail, a group's phone) gives the variable's
 * fallback, or nothing when it has none.
 */
export function renderMessage(message: string, recipient: RecipientFields, random: () => number = Math.random): string {
  const values = variableValues(recipient);
  const render = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        if (n.t === 'text') return n.v;
        if (n.t === 'var') {
          const value = Object.hasOwn(values, n.name) ? values[n.name as CampaignVariable] : '';
          return value || (n.fallback ?? '');
        }
        const pick = Math.min(n.options.length - 1, Math.floor(random() * n.options.length));
        return render(n.options[pick]);
      })
      .join('');
  return render(parseMessage(message));
}
