import type { MessageButton } from './driver';

/**
 * Interactive buttons do not arrive reliably on WhatsApp Web, so personal-number drivers send them
 * as a numbered text menu and map a reply "1", "2"… back to the button.
 */
export function renderNumberedMenu(text: string, buttons: MessageButton[]): string {
  if (!buttons.length) return text;
  const lines = buttons.map((b, i) => {
    const n = `${i + 1}. ${b.text}`;
    if (b.type === 'url') return `${n}: ${b.value}`;
    if (b.type === 'phone') return `${n}: ${b.value}`;
    return n;
  });
  return `${text}\n\n${lines.join('\n')}\n\nResponda com o número da opção.`;
}

/** Remembers the last menu sent to each chat, to read a numeric answer as a button press. */
export class MenuMemory {
  private readonly menus = new Map<string, { buttons: MessageButton[]; at: number }>();

  constructor(private readonly ttlMs = 24 * 60 * 60 * 1000) {}

  remember(chat: string, buttons: MessageButton[]): void {
    if (buttons.length) this.menus.set(chat, { buttons, at: Date.now() });
  }

  /** The button a reply chooses ("2", " 2 ", "2." … or the button's text), or undefined. */
  match(chat: string, reply: string): MessageButton | undefined {
    const menu = this.menus.get(chat);
    if (!menu || Date.now() - menu.at > this.ttlMs) return undefined;
    const m = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(reply);
    if (m) return menu.buttons[Number(m[1]) - 1];
    const said = comparable(reply);
    return said ? menu.buttons.find((b) => comparable(b.text) === said) : undefined;
  }
}

/** Case, accents and punctuation do not matter when a button's text is typed back. */
function comparable(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
