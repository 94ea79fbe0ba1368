import type { AutoReply, BotConfig } from './bot';

/** A saved bot configuration with an interactive and an image rule: the example the form tests share. */
export const exampleInteractiveReply: AutoReply = {
  id: 'r1',
  keyword: 'oi',
  trigger: 'oi',
  response: 'Olá! Como podemos ajudar?',
  type: 'interactive',
  buttons: [{ id: 'btn-1', text: 'Site', type: 'url', value: 'https://exemplo.com.br' }],
  imageUrl: '',
  mediaUrl: '',
  location: null,
  contactCard: null,
  isActive: false,
};
export const exampleImageReply: AutoReply = {
  id: 'r2',
  keyword: 'cardapio',
  trigger: 'cardapio',
  response: 'Nosso cardápio',
  type: 'image',
  buttons: [],
  imageUrl: 'https://exemplo.com.br/cardapio.png',
  mediaUrl: '',
  location: null,
  contactCard: null,
  isActive: true,
};

export const exampleBotConfig: BotConfig = {
  isEnabled: true,
  welcomeMessage: 'Bem-vindo!',
  autoReplies: [exampleInteractiveReply, exampleImageReply],
  aiEnabled: false,
  aiModel: 'gpt-3.5-turbo',
  businessHours: { start: '09:00', end: '18:00', days: ['monday', 'tuesday'] },
  outOfHoursMessage: '',
  aiInstructions: '',
  handoffMinutes: 120,
  aiAvailable: false,
};
