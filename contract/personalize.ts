import { CAMPAIGN_VARIABLES, type CampaignVariable } from './campaigns';

/**
 * Personalised campaign text: `{{nome}}`, `{{primeiro_nome}}`, `{{telefone}}`, `{{email}}` and
 * spintax `{Olá|Oi|Bom dia}` (nested allowed). A brace group without `|` and a brace never closed
 * stay as written, so ordinary text with braces is not mangled.
 */
type Node = { t: 'text'; v: string } | { t: 'var'; name: string } | { t: 'alt'; options: Node[][] };

const VARIABLE = /^\{\{\s*([A-Za-z_]+)\s*\}\}/;

interface Parsed {
  nodes: Node[];
  end: number;
  /** The character that stopped the sequence: '|', '}' or '' at the end of the text. */
  stop: string;
}

function parseSequence(s: string, start: number, nested: boolean): Parsed {
  const nodes: Node[] = [];
  let buf = '';
  let i = start;
  const flush = () => {
    if (buf) nodes.push({ t: 'text', v: buf });
    buf = '';
  };
  while (i < s.length) {
    const c = s[i];
    if (nested && (c === '|' || c === '}')) {
      flush();
      return { nodes, end: i, stop: c };
    }
    if (c === '{') {
      const variable = VARIABLE.exec(s.slice(i, i + 40));
      if (variable) {
        flush();
        nodes.push({ t: 'var', name: variable[1].toLowerCase() });
        i += variable[0].length;
        continue;
      }
      const group = parseGroup(s, i);
      if (group) {
        flush();
        nodes.push(group.node);
        i = group.end;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return { nodes, end: i, stop: '' };
}

/** A spintax group starting at `{`, or null when the brace is plain text. */
function parseGroup(s: string, open: number): { node: Node; end: number } | null {
  const options: Node[][] = [];
  let i = open + 1;
  for (;;) {
    const part = parseSequence(s, i, true);
    options.push(part.nodes);
    if (part.stop === '|') {
      i = part.end + 1;
      continue;
    }
    if (part.stop === '}' && options.length > 1) return { node: { t: 'alt', options }, end: part.end + 1 };
    return null;
  }
}

export function parseMessage(message: string): Node[] {
  return parseSequence(message, 0, false).nodes;
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
