import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * No screen shows a made-up figure: every count, rate, trend and growth comes from the API. This
 * scans the browser app's sources (and the contract's constants it renders) for figures written
 * into the code — '1.247', '98,2%', '+12%', '12,5K', formatNumber(1247), campaigns.length * 1.2 —
 * and fails naming the file and line. Comments are not code, so they may quote figures.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Finding {
  file: string;
  line: number;
  text: string;
  rule: string;
}

/** Figures inside a text the user reads (a string, a template part, JSX text). */
const TEXT_RULES: readonly { rule: string; pattern: RegExp }[] = [
  // 1.247, 12.480, 1.000.000 (pt-BR grouping).
  { rule: 'número com milhar', pattern: /(?<![\w.,])\d{1,3}(?:\.\d{3})+(?![\w.,]*\d)/ },
  // 98,2%, +12%, -3 % (not Tailwind's from-40%, w-[85%], calc(100%-2rem)).
  { rule: 'porcentagem', pattern: /(?<![\w[(.-])[+-]?\d+(?:,\d+)?\s?%(?![\w\]])/ },
  // 12K, 1,5M, 3 mil.
  { rule: 'abreviação K/M', pattern: /(?<![\w.,#/-])\d+(?:,\d+)?\s?(?:[KM]|mil)(?![\w])/ },
  // 'campanhas × 1,2'.
  { rule: 'multiplicação', pattern: /×\s*\d/ },
];

/** A whole string that is nothing but a figure ('+12%', '1.247', '2,0M'): a sample value, wherever it is. */
const WHOLE_FIGURE = /^\s*(?:[+-]?\d+(?:[.,]\d+)*\s?(?:%|[KM])|\d{1,3}(?:\.\d{3})+)\s*$/;

/** A CSS size ({ width: '100%' }) is layout, not a figure. */
const CSS_SIZE = /^(?:min|max)?(?:width|height)$|^(?:top|right|bottom|left|inset|flexBasis)$/i;

const FORMAT_CALL = /^format[A-Z]\w*$/;

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

function isClassName(node: ts.Node): boolean {
  // className="…" and cn('…'), cva('…'): Tailwind classes, not figures.
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isJsxAttribute(p)) return p.name.getText() === 'className';
    if (ts.isCallExpression(p)) {
      const callee = p.expression.getText();
      return callee === 'cn' || callee === 'cva' || callee === 'clsx';
    }
    if (ts.isPropertyAssignment(p) || ts.isVariableDeclaration(p) || ts.isJsxExpression(p)) continue;
    if (ts.isBlock(p) || ts.isSourceFile(p)) return false;
  }
  return false;
}

function isNumberLiteral(node: ts.Node): node is ts.NumericLiteral {
  return (
    ts.isNumericLiteral(node) ||
    (ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand))
  );
}

/** The findings of one source text; `textRules` off for files that only hold constants (contract/). */
function scanSource(file: string, code: string, { textRules = true } = {}): Finding[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, kind);
  const findings: Finding[] = [];
  const add = (node: ts.Node, rule: string) =>
    findings.push({ file, line: lineOf(source, node), text: node.getText(source).trim().slice(0, 120), rule });

  const checkText = (node: ts.Node, text: string) => {
    const parent = node.parent;
    if (parent && ts.isPropertyAssignment(parent) && CSS_SIZE.test(parent.name.getText(source))) return;
    if (WHOLE_FIGURE.test(text)) {
      add(node, 'texto que é só um número');
      return;
    }
    if (!textRules || isClassName(node)) return;
    for (const { rule, pattern } of TEXT_RULES) {
      if (pattern.test(text)) {
        add(node, rule);
        return;
      }
    }
  };

  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) checkText(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      checkText(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' '));
    } else if (ts.isJsxText(node)) checkText(node, node.text);
    else if (ts.isCallExpression(node)) {
      // formatNumber(1247), formatPercent(98.2): a figure dressed as data.
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : '';
      if (FORMAT_CALL.test(name) && node.arguments[0] && isNumberLiteral(node.arguments[0]))
        add(node, 'formatação de um número fixo');
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AsteriskToken) {
      // campaigns.length * 1.2: a figure derived from a made-up factor.
      const [a, b] = [node.left, node.right];
      const counted = (n: ts.Node) => /\.length$|count|campaign/i.test(n.getText(source));
      if ((isNumberLiteral(a) && counted(b)) || (isNumberLiteral(b) && counted(a)))
        add(node, 'contagem multiplicada por fator fixo');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      out.push(path);
  }
  return out;
}

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

/**
 * Genuine figures, each with its reason. Entries name the file and the exact code, so a new figure
 * in the same file still fails, and an entry whose code is gone fails too (see below).
 */
const ALLOWED: readonly { file: string; text: string; reason: string }[] = [
  ...['formatCount(12_480)', 'formatCount(3_215)', 'formatPercent(87.4)', 'formatCount(1_932)'].map((text) => ({
    file: 'web/features/landing/components/landing-page.tsx',
    text,
    reason:
      "SPEC §2: the public landing page shows sample dashboard figures, labelled as an illustration ('SAMPLE_METRICS')",
  })),
];

function isAllowed(f: Finding): boolean {
  return ALLOWED.some((a) => a.file === f.file && f.text.includes(a.text));
}

function scanProject(): Finding[] {
  const web = sourceFiles(join(ROOT, 'web')).flatMap((p) => scanSource(rel(p), readFileSync(p, 'utf8')));
  const contract = sourceFiles(join(ROOT, 'contract')).flatMap((p) =>
    scanSource(rel(p), readFileSync(p, 'utf8'), { textRules: false }),
  );
  return [...web, ...contract];
}

const describeFinding = (f: Finding) => `${f.file}:${f.line}: ${f.rule}: ${f.text}`;

describe('no component renders a literal figure', () => {
  it('finds none in web/ (components and their modules) nor in the contract constants they render', () => {
    const offenders = scanProject()
      .filter((f) => !isAllowed(f))
      .map(describeFinding);
    expect(offenders, 'figures written into the code: take them from the API').toEqual([]);
  });

  it('keeps no stale allow-list entry', () => {
    const findings = scanProject();
    const unused = ALLOWED.filter((a) => !findings.some((f) => f.file === a.file && f.text.includes(a.text)));
    expect(unused).toEqual([]);
  });

  it("would have caught the old header's sample figures and the hard-coded trend badges", () => {
    const oldHeader = [
      "import { formatNumber, formatPercent, initials } from '#web/lib/format';",
      '',
      '// SPEC §2: the header shows static sample figures.',
      'const SAMPLE_FIGURES = [',
      "  { label: 'Enviadas hoje', value: formatNumber(1247) },",
      "  { label: 'Taxa de entrega', value: formatPercent(98.2) },",
      '];',
    ].join('\n');
    expect(scanSource('web/app/layouts/dashboard/app-header.tsx', oldHeader).map(describeFinding)).toEqual([
      'web/app/layouts/dashboard/app-header.tsx:5: formatação de um número fixo: formatNumber(1247)',
      'web/app/layouts/dashboard/app-header.tsx:6: formatação de um número fixo: formatPercent(98.2)',
    ]);

    const oldTrends = "export const DASHBOARD_TRENDS = ['+12%', '+8%', '+15%', '+25%'] as const;";
    expect(scanSource('contract/constants.ts', oldTrends, { textRules: false })).toHaveLength(4);
  });

  it.each([
    ['<dd>1.247</dd>', 'texto que é só um número'],
    ['<dd>98,2%</dd>', 'texto que é só um número'],
    ['<dd>Hoje: 1.247 enviadas</dd>', 'número com milhar'],
    ["const label = 'Taxa de entrega 98,2%';", 'porcentagem'],
    ['<Badge>+12% vs. mês anterior</Badge>', 'porcentagem'],
    ['<p>12,5K mensagens</p>', 'abreviação K/M'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source code under scan, not a template
    ['const t = `${name}: 3 mil envios`;', 'abreviação K/M'],
    ['<p>Crescimento: campanhas × 1,2</p>', 'multiplicação'],
    ['const growth = Math.round(campaigns.length * 1.2);', 'contagem multiplicada por fator fixo'],
    ["const v = '1.247';", 'texto que é só um número'],
    ["const trend = { value: '+8%' };", 'texto que é só um número'],
  ])('flags %s', (code, rule) => {
    expect(scanSource('web/x.tsx', code).map((f) => f.rule)).toEqual([rule]);
  });

  it.each([
    '<div className="bg-gradient-to-r from-muted from-40% to-transparent" />',
    "<div className={cn('max-w-[85%] w-[calc(100%-2rem)]', a)} />",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source code under scan, not a template
    '<div style={{ width: `${rate}%` }} />',
    '<p>{formatPercent(metrics.openRate)}</p>',
    '// O header mostrava 1.247 e 98,2%.',
    'const left = list.clientWidth * 0.7;',
    '<Skeleton className="h-8 w-20" />',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source code under scan, not a template
    '<span>{`Últimos ${days} dias`}</span>',
    "const CHART_STYLE = { width: '100%', height: '100%' };",
    "const PREFIX = '+55 ';",
  ])('leaves %s alone', (code) => {
    expect(scanSource('web/x.tsx', code)).toEqual([]);
  });
});
