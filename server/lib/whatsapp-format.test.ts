import { describe, expect, it } from 'vitest';
import { tokenizeWhatsapp } from '../../contract/whatsapp-text';
import { htmlToWhatsapp, sanitizeMessageHtml, savedMessageText } from './whatsapp-format';

describe('sanitizeMessageHtml', () => {
  it('keeps harmless formatting and drops scripts, handlers, styles and links', () => {
    expect(sanitizeMessageHtml('<b>Olá</b> <i>mundo</i><br><u>sub</u>')).toBe(
      '<b>Olá</b> <i>mundo</i><br /><u>sub</u>',
    );
    expect(
      sanitizeMessageHtml(
        '<p onclick="x()" style="color:red" class="c">Oi<script>alert(1)</script><img src=x onerror="alert(1)"></p>',
      ),
    ).toBe('<p>Oi</p>');
    expect(sanitizeMessageHtml('<a href="javascript:alert(1)">clique</a>')).toBe('clique');
    expect(sanitizeMessageHtml('<style>b{color:red}</style><iframe src="https://x"></iframe>fim')).toBe('fim');
    expect(sanitizeMessageHtml('<svg><textarea>&lt;/textarea&gt;&lt;img src=x onerror=1&gt;</textarea></svg>ok')).toBe(
      'ok',
    );
    expect(sanitizeMessageHtml('<b>sem fechar')).toBe('<b>sem fechar</b>');
  });
});

describe('htmlToWhatsapp', () => {
  const cases: Array<[string, string]> = [
    ['<b>Olá</b> <i>mundo</i>', '*Olá* _mundo_'],
    ['<strong>a</strong> <em>b</em> <s>c</s> <strike>d</strike> <del>e</del> <u>f</u>', '*a* _b_ ~c~ ~d~ ~e~ f'],
    // Nested styles, and a style nested inside itself.
    ['<b><i>x</i></b> e <b>a<b>b</b></b>', '*_x_* e *ab*'],
    // Neighbouring elements of the same style form one run.
    ['<b>a</b><strong>b</strong>', '*ab*'],
    // Spaces stay outside the markers; a style around nothing adds nothing.
    ['Oi<b> você </b>!', 'Oi *você* !'],
    ['<b></b><i> </i><s></s>fim', 'fim'],
    // A style across a line break closes and reopens around it.
    ['<b>linha 1<br>linha 2</b>', '*linha 1*\n*linha 2*'],
    ['<p>um</p><p>dois</p>', 'um\n\ndois'],
    ['<div>a</div><div>b</div>', 'a\nb'],
    ['a<br><br>b', 'a\n\nb'],
    ['<p></p><div></div>  texto  <p></p>', 'texto'],
    ['  \n  <p>\n   Olá\n   mundo  </p>  ', 'Olá mundo'],
    [
      '<ul><li>um</li><li><b>dois</b></li></ul><ol><li>x</li><li>y<ul><li>z</li></ul></li></ol>',
      '• um\n• *dois*\n1. x\n2. y\n  • z',
    ],
    ['Lista:<ul><li> a </li></ul>Fim', 'Lista:\n• a\nFim'],
    ['<pre>\nconst x = 1;\n  y</pre>', '```const x = 1;\n  y```'],
    ['rode <code>npm i</code> agora', 'rode ```npm i``` agora'],
    ['&lt;b&gt; &amp; &quot;x&quot; &#233; &#x1F600;', '<b> & "x" é 😀'],
    ['a&nbsp;&nbsp;b', 'a  b'],
    ['<script>alert(1)</script><img src=x onerror=alert(1)>Oi <a href="javascript:x">link</a>', 'Oi link'],
    ['texto simples', 'texto simples'],
    ['', ''],
  ];
  it.each(cases)('%j → %j', (html, expected) => {
    expect(htmlToWhatsapp(html)).toBe(expected);
  });

  it('leaves no tag behind, whatever the input', () => {
    for (const html of ['<b><i>a</b></i>', '<<b>>x<</b>>', '<p>a<p>b', '</b>x<b>', '<br/><br /><BR>', '<B>X</B>']) {
      expect(htmlToWhatsapp(html)).not.toMatch(/<\/?[a-z]+[^>]*>/i);
    }
  });
});

describe('entities', () => {
  it('are decoded once, named and numeric', () => {
    expect(htmlToWhatsapp('&amp;lt; &apos; &#39; a &amp; b')).toBe("&lt; ' ' a & b");
  });
});

describe('savedMessageText', () => {
  it('turns HTML into WhatsApp text and keeps plain text as it is', () => {
    expect(savedMessageText({ contentType: 'html', content: '<b>Oi</b><br>tudo bem?' })).toBe('*Oi*\ntudo bem?');
    expect(savedMessageText({ contentType: 'text', content: '<b>Oi</b>\n  tudo bem?' })).toBe('<b>Oi</b>\n  tudo bem?');
  });
});

describe('deeply nested HTML', () => {
  it('keeps at most 16 levels of tags, so walking the stored HTML never exhausts the stack', () => {
    const deep = `${'<b>'.repeat(20_000)}Oferta`;
    const stored = sanitizeMessageHtml(deep);
    expect(stored.match(/<b>/g)?.length).toBeLessThanOrEqual(16);
    expect(savedMessageText({ contentType: 'html', content: stored })).toBe('*Oferta*');
    expect(() => htmlToWhatsapp(sanitizeMessageHtml('<ul><li>'.repeat(5000)))).not.toThrow();
  });
});

describe('the WhatsApp text it writes', () => {
  // The previews read WhatsApp's formatting with contract/whatsapp-text.ts: what this conversion
  // writes must come out there (and on the phone) with the HTML's styles, markers gone.
  const styled = (html: string) =>
    tokenizeWhatsapp(htmlToWhatsapp(html)).map(({ text, ...styles }) => [text, Object.keys(styles).sort().join('+')]);

  it.each<[string, Array<[string, string]>]>([
    [
      '<b>Olá</b> <i>mundo</i>',
      [
        ['Olá', 'bold'],
        [' ', ''],
        ['mundo', 'italic'],
      ],
    ],
    [
      '<b><i>x</i></b> e <s>velho</s>',
      [
        ['x', 'bold+italic'],
        [' e ', ''],
        ['velho', 'strike'],
      ],
    ],
    [
      'Oi<b> você </b>!',
      [
        ['Oi ', ''],
        ['você', 'bold'],
        [' !', ''],
      ],
    ],
    [
      '<b>linha 1<br>linha 2</b>',
      [
        ['linha 1', 'bold'],
        ['\n', ''],
        ['linha 2', 'bold'],
      ],
    ],
    [
      '<p><b>50% OFF</b></p><p>só hoje</p>',
      [
        ['50% OFF', 'bold'],
        ['\n\nsó hoje', ''],
      ],
    ],
    [
      'rode <code>npm i</code> agora',
      [
        ['rode ', ''],
        ['npm i', 'mono'],
        [' agora', ''],
      ],
    ],
    ['<pre>a *b*\n_c_</pre>', [['a *b*\n_c_', 'mono']]],
  ])('%j reads back with its styles', (html, expected) => {
    expect(styled(html)).toEqual(expected);
  });
});
