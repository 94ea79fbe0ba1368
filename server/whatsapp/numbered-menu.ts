import { normalizeForMatch } from '../../contract/text-match';
import type { Driver, InboundMessage, MessageButton } from './driver';

/**
 * How the Cloud API carries buttons: one to three quick replies as reply buttons (links and phone
 * numbers written in the text), a lone link as a CTA URL button, anything else as a numbered menu.
 */
export function cloudButtonLayout(buttons: readonly Pick<MessageButton, 'type'>[]): 'reply' | 'cta_url' | 'menu' {
  const replies = buttons.filter((b) => b.type === 'quick_reply').length;
  if (replies > 0 && replies <= 3) return 'reply';
  if (buttons.length > 0 && buttons.filter((b) => b.type === 'url').length === 1) return 'cta_url';
  return 'menu';
}

/** Whether a driver of this kind sends these buttons as a numbered text menu. */
export function sendsNumberedMenu(kind: Driver['kind'], buttons: readonly Pick<MessageButton, 'type'>[]): boolean {
  if (!buttons.length) return false;
  return kind !== 'cloud' || cloudButtonLayout(buttons) === 'menu';
}

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
    return this.choose(chat, reply)?.button;
  }

  /**
   * A reply read as a menu answer, as the inbound message carries it: the button's value for the
   * chatbot to act on, its id, and what the contact sent with the option it chose.
   */
  answer(chat: string, reply: string): Required<Pick<InboundMessage, 'text' | 'buttonId' | 'choice'>> | undefined {
    const chosen = this.choose(chat, reply);
    if (!chosen) return undefined;
    const { button, number } = chosen;
    return {
      text: button.value,
      buttonId: button.id,
      choice: { said: reply.trim(), option: button.text, ...(number ? { number } : {}) },
    };
  }

  private choose(chat: string, reply: string): { button: MessageButton; number?: number } | undefined {
    const menu = this.menus.get(chat);
    if (!menu || Date.now() - menu.at > this.ttlMs) return undefined;
    const m = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(reply);
    if (m) {
      const number = Number(m[1]);
      const button = menu.buttons[number - 1];
      return button ? { button, number } : undefined;
    }
    // Case, accents and punctuation do not matter when a button's text is typed back.
    const said = normalizeForMatch(reply);
    const button = said ? menu.buttons.find((b) => normalizeForMatch(b.text) === said) : undefined;
    return button ? { button } : undefined;
  }
}
