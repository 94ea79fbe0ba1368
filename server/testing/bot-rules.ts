/** Bot rules of the chatbot tests: 'preço' answers with two reply buttons, one of which asks 'planos'. */
export const PRICE_RULES_WITH_BUTTONS = [
  {
    trigger: 'preço',
    response: 'Temos planos a partir de R$ 10.',
    type: 'interactive',
    buttons: [
      { text: 'Ver planos', type: 'quick_reply', value: 'planos' },
      { text: 'Site', type: 'url', value: 'https://loja.example.com' },
    ],
  },
  { trigger: 'planos', response: 'Básico, Pro e Premium.' },
];
