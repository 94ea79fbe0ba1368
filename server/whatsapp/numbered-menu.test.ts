import { describe, expect, it } from 'vitest';
import type { MessageButton } from './driver';
import { cloudButtonLayout, MenuMemory, sendsNumberedMenu } from './numbered-menu';

const buttons: MessageButton[] = [
  { id: 'tel:5511999999999', text: 'Ligar para suporte', type: 'phone', value: '5511999999999' },
  {
    id: 'url:https://exemplo.com.br/ajuda',
    text: 'Central de ajuda',
    type: 'url',
    value: 'https://exemplo.com.br/ajuda',
  },
  { id: 'kw:atendente', text: 'Falar com atendente', type: 'quick_reply', value: 'atendente' },
];

describe('MenuMemory.answer', () => {
  it('reads "3" as the button for the chatbot and keeps what the contact sent for the conversation', () => {
    const menus = new MenuMemory();
    menus.remember('5511976540011', buttons);
    expect(menus.answer('5511976540011', ' 3 ')).toEqual({
      text: 'atendente',
      buttonId: 'kw:atendente',
      choice: { said: '3', option: 'Falar com atendente', number: 3 },
    });
    expect(menus.answer('5511976540011', 'central de AJUDA')).toEqual({
      text: 'https://exemplo.com.br/ajuda',
      buttonId: 'url:https://exemplo.com.br/ajuda',
      choice: { said: 'central de AJUDA', option: 'Central de ajuda' },
    });
  });

  it('answers nothing for another number, a number past the menu or other words', () => {
    const menus = new MenuMemory();
    menus.remember('5511976540011', buttons);
    expect(menus.answer('5511976540022', '1')).toBeUndefined();
    expect(menus.answer('5511976540011', '4')).toBeUndefined();
    expect(menus.answer('5511976540011', 'quero falar com alguém')).toBeUndefined();
    expect(menus.match('5511976540011', '2')).toBe(buttons[1]);
  });
});

describe('how buttons go out', () => {
  it('a personal number always sends a numbered menu', () => {
    expect(sendsNumberedMenu('baileys', buttons)).toBe(true);
    expect(sendsNumberedMenu('simulator', buttons)).toBe(true);
    expect(sendsNumberedMenu('simulator', [])).toBe(false);
  });

  it('the Cloud API: reply buttons for up to three quick replies, a CTA for a lone link, else a menu', () => {
    const [phone, link, reply] = buttons;
    const otherLink = { ...link, id: 'url:https://exemplo.com.br', value: 'https://exemplo.com.br' };
    expect(cloudButtonLayout(buttons)).toBe('reply');
    expect(cloudButtonLayout([phone, link])).toBe('cta_url');
    expect(cloudButtonLayout([link, otherLink])).toBe('menu');
    expect(cloudButtonLayout([phone])).toBe('menu');
    expect(cloudButtonLayout([reply, reply, reply, reply])).toBe('menu');
    expect(sendsNumberedMenu('cloud', buttons)).toBe(false);
    expect(sendsNumberedMenu('cloud', [link, otherLink])).toBe(true);
  });
});
