import { CAMPAIGN_VARIABLES, type CampaignVariable } from './campaigns';

/**
 * Personalised campaign text: `{{nome}}`, `{{primeiro_nome}}`, `{{telefone}}`, `{{email}}` and
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
type Node = { t: 'text'; v: string } | { t: 'var'; name: string } | { t: 'alt'; options: Node[][] };

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
const SPACE = /\s/;

const isNameChar = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** `{{ name }}` starting at `open`: letters and `_`, spaces allowed inside, within VARIABLE_SPAN characters. */
function variableAt(s: string, open: number, meter: ParseMeter): { name: string; end: number } | null {
  if (s.charCodeAt(open + 1) !== OPEN) return null;
  const limit = Math.min(s.length, open + VARIABLE_SPAN);
  let j = open + 2;
  while (j < limit && SPACE.test(s[j])) j++;
  const nameStart = j;
  while (j < limit && isNameChar(s.charCodeAt(j))) j++;
  const nameEnd = j;
  while (j < limit && SPACE.test(s[j])) j++;
  meter.steps += j + 2 - open;
  if (nameEnd === nameStart || j + 1 >= limit || s.charCodeAt(j) !== CLOSE || s.charCodeAt(j + 1) !== CLOSE)
    return null;
  return { name: s.slice(nameStart, nameEnd).toLowerCase(), end: j + 2 };
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
        out.push({ t: 'var', name: variable.name });
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

/** The first unknown `{{variable}}` of a message, or null when every one is known. */
export function unknownVariable(message: string): string | null {
  const walk = (nodes: Node[]): string | null => {
    for (const n of nodes) {
      if (n.t === 'var' && !(CAMPAIGN_VARIABLES as readonly string[]).includes(n.name)) return n.name;
      if (n.t === 'alt') {
        for (const option of n.options) {
          const found = walk(option);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return walk(parseMessage(message));
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

/** The message as this recipient gets it: variables filled, one option of each spintax group chosen. */
export function renderMessage(message: string, recipient: RecipientFields, random: () => number = Math.random): string {
  const values = variableValues(recipient);
  const render = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        if (n.t === 'text') return n.v;
        if (n.t === 'var') return Object.hasOwn(values, n.name) ? values[n.name as CampaignVariable] : '';
        const pick = Math.min(n.options.length - 1, Math.floor(random() * n.options.length));
        return render(n.options[pick]);
      })
      .join('');
  return render(parseMessage(message));
}
