import type { ChildNode, Element, Text } from 'domhandler';
import { ElementType, parseDocument } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { SAVED_MESSAGE_HTML_TAGS } from '../../contract/saved-messages';
import { WHATSAPP_MARKERS } from '../../contract/whatsapp-text';

/**
 * HTML messages: sanitised before they are stored, and turned into WhatsApp's own formatting
 * (`*bold*`, `_italic_`, `~strike~`, ``` monospace) when they are sent or previewed. The markers,
 * and the rules the browser's previews read them by, are contract/whatsapp-text.ts.
 */

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...SAVED_MESSAGE_HTML_TAGS],
  // No attribute at all: no event handler, style, class or link survives.
  allowedAttributes: {},
  allowedSchemes: [],
  allowProtocolRelative: false,
  // Whatever these hold is code or a document of its own, never text of the message.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'select',
    'iframe',
    'noembed',
    'noframes',
    'xmp',
    'template',
    'title',
    'head',
    'object',
    'svg',
    'math',
  ],
  disallowedTagsMode: 'discard',
  // Formatting nests a few levels in practice; deeper tags are dropped (their text kept), so the
  // stored HTML can never be deep enough to exhaust the stack of the code that walks it.
  nestingLimit: 16,
};

/** Only harmless formatting survives (SAVED_MESSAGE_HTML_TAGS, without attributes). */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS).trim();
}

type Node = string | { tag: string; children: Node[] };

/** A tree of sanitised HTML: htmlparser2's DOM (entities decoded) as tags and their text. */
function parse(html: string): Node[] {
  const walk = (nodes: ChildNode[]): Node[] =>
    nodes.flatMap((n): Node[] => {
      if (n.type === ElementType.Text) return [(n as Text).data];
      if (n.type === ElementType.Tag) {
        const el = n as Element;
        return [{ tag: el.name.toLowerCase(), children: walk(el.children) }];
      }
      return [];
    });
  return walk(parseDocument(html).children);
}

type Piece =
  | { kind: 'text'; value: string }
  /** Written as is: list bullets and monospace blocks. */
  | { kind: 'raw'; value: string }
  | { kind: 'br' }
  /** The start or end of a block: a line break, or a blank line for a paragraph. */
  | { kind: 'block'; blank: boolean };

const MARKERS: Record<string, string> = {
  b: WHATSAPP_MARKERS.bold,
  strong: WHATSAPP_MARKERS.bold,
  i: WHATSAPP_MARKERS.italic,
  em: WHATSAPP_MARKERS.italic,
  s: WHATSAPP_MARKERS.strike,
  strike: WHATSAPP_MARKERS.strike,
  del: WHATSAPP_MARKERS.strike,
  code: WHATSAPP_MARKERS.mono,
};

interface Context {
  marks: ReadonlySet<string>;
  /** Nesting of the lists around (for indentation). */
  depth: number;
  /** The list item counter of the nearest ordered list, if any. */
  ordered: { next: number } | null;
}

const markerOf = (node: Node) => (typeof node === 'string' ? undefined : MARKERS[node.tag]);

/** Neighbouring elements of the same style are one run (`<b>a</b><b>b</b>` is `*ab*`, not `*a**b*`). */
function mergeSiblings(children: Node[]): Node[] {
  const out: Node[] = [];
  for (const child of children) {
    const prev = out[out.length - 1];
    const marker = markerOf(child);
    if (marker && prev !== undefined && markerOf(prev) === marker && typeof prev !== 'string') {
      out[out.length - 1] = {
        tag: prev.tag,
        children: [...prev.children, ...(child as { children: Node[] }).children],
      };
    } else {
      out.push(child);
    }
  }
  return out;
}

function joinText(a: string, b: string): string {
  return a.endsWith(' ') && b.startsWith(' ') ? a + b.slice(1) : a + b;
}

/**
 * Wraps each run of text between line breaks in the marker. WhatsApp only formats a marker that
 * touches the text, so surrounding spaces stay outside; a run with no text gets no marker.
 */
function wrap(pieces: Piece[], marker: string): Piece[] {
  const out: Piece[] = [];
  let run: string | null = null;
  const flush = () => {
    if (run === null) return;
    const core = run.trim();
    if (core) {
      const lead = run.startsWith(' ') ? ' ' : '';
      const trail = run.endsWith(' ') ? ' ' : '';
      out.push({ kind: 'text', value: `${lead}${marker}${core}${marker}${trail}` });
    } else if (run) {
      out.push({ kind: 'text', value: ' ' });
    }
    run = null;
  };
  for (const p of pieces) {
    if (p.kind === 'text') {
      run = run === null ? p.value : joinText(run, p.value);
    } else {
      flush();
      out.push(p);
    }
  }
  flush();
  return out;
}

/** The text of a `<pre>`, as written (tags inside add nothing but their line breaks). */
function preText(nodes: Node[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : n.tag === 'br' ? '\n' : preText(n.children))).join('');
}

function render(nodes: Node[], ctx: Context): Piece[] {
  const out: Piece[] = [];
  for (const node of mergeSiblings(nodes)) {
    if (typeof node === 'string') {
      const value = node.replace(/[ \t\n\r\f]+/g, ' ');
      if (value) out.push({ kind: 'text', value });
      continue;
    }
    const marker = MARKERS[node.tag];
    switch (node.tag) {
      case 'br':
        out.push({ kind: 'br' });
        break;
      case 'p':
      case 'div':
        out.push({ kind: 'block', blank: node.tag === 'p' }, ...render(node.children, ctx), {
          kind: 'block',
          blank: node.tag === 'p',
        });
        break;
      case 'ul':
      case 'ol':
        out.push(
          { kind: 'block', blank: false },
          ...render(node.children, {
            ...ctx,
            depth: ctx.depth + 1,
            ordered: node.tag === 'ol' ? { next: 1 } : null,
          }),
          { kind: 'block', blank: false },
        );
        break;
      case 'li': {
        const indent = '  '.repeat(Math.max(0, ctx.depth - 1));
        const bullet = ctx.ordered ? `${ctx.ordered.next++}. ` : '• ';
        out.push({ kind: 'block', blank: false }, { kind: 'raw', value: `${indent}${bullet}` });
        out.push(...render(node.children, { ...ctx, ordered: null }), { kind: 'block', blank: false });
        break;
      }
      case 'pre': {
        // As in HTML, a line break right after <pre> is not content.
        const code = preText(node.children)
          .replace(/^\r?\n/, '')
          .trimEnd();
        if (code.trim()) {
          out.push(
            { kind: 'block', blank: false },
            { kind: 'raw', value: `${WHATSAPP_MARKERS.mono}${code}${WHATSAPP_MARKERS.mono}` },
            {
              kind: 'block',
              blank: false,
            },
          );
        }
        break;
      }
      default: {
        if (!marker || ctx.marks.has(marker)) {
          // Underline has no WhatsApp form; the same style nested inside itself adds nothing.
          out.push(...render(node.children, ctx));
          break;
        }
        const marks = new Set(ctx.marks).add(marker);
        out.push(...wrap(render(node.children, { ...ctx, marks }), marker));
      }
    }
  }
  return out;
}

function serialise(pieces: Piece[]): string {
  let out = '';
  let pending: 'none' | 'line' | 'blank' = 'none';
  const newline = () => {
    out = `${out.replace(/ +$/, '')}\n`;
  };
  const settle = () => {
    if (out && pending !== 'none') {
      const wanted = pending === 'blank' ? 2 : 1;
      const have = /\n*$/.exec(out)?.[0].length ?? 0;
      for (let i = have; i < wanted; i++) newline();
    }
    pending = 'none';
  };
  for (const p of pieces) {
    if (p.kind === 'block') {
      if (p.blank) pending = 'blank';
      else if (pending === 'none') pending = 'line';
      continue;
    }
    if (p.kind === 'br') {
      settle();
      newline();
      continue;
    }
    if (p.kind === 'raw') {
      settle();
      out += p.value;
      continue;
    }
    let value = p.value;
    if (pending !== 'none' && value.trim() === '') continue;
    settle();
    if (out === '' || /[ \n]$/.test(out)) value = value.replace(/^ +/, '');
    out += value;
  }
  return out
    .replace(/ +$/gm, '')
    .replace(/\u00a0/g, ' ')
    .replace(/^\n+|\s+$/g, '');
}

/**
 * Sanitised (or any) HTML as WhatsApp text: bold `*x*`, italic `_x_`, strike `~x~`, monospace
 * ```x``` for code and pre, line breaks for br, p, div and list items ('• ' or '1. ' before each),
 * entities decoded, no tag left.
 */
export function htmlToWhatsapp(html: string): string {
  const tree = parse(sanitizeMessageHtml(html));
  return serialise(render(tree, { marks: new Set(), depth: 0, ordered: null }));
}

/** The text a saved message sends: HTML turned into WhatsApp formatting, plain text as it is. */
export function savedMessageText(row: { content: string; contentType: string }): string {
  return row.contentType === 'html' ? htmlToWhatsapp(row.content) : row.content;
}
