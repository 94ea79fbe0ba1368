/**
 * Every e-mail the product sends, in pt-BR, each as plain text and as simple HTML with the same
 * words. What a user typed (a name, a campaign's name) is escaped in the HTML; links are built by
 * the server from PUBLIC_URL, never from a request.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Letter {
  subject: string;
  product: string;
  /** The recipient's name, for the greeting. */
  name: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  after?: string[];
  footer: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** One line: a header may not hold a line break, and a name typed with one reads the same without it. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const greeting = (name: string) => (oneLine(name) ? `Olá, ${oneLine(name)},` : 'Olá,');

function render(l: Letter): MailContent {
  const after = l.after ?? [];
  const text = [
    greeting(l.name),
    ...l.paragraphs,
    ...(l.action ? [`${l.action.label}: ${l.action.url}`] : []),
    ...after,
    `--\n${l.footer}`,
  ].join('\n\n');

  const p = (s: string, style = '') => `<p style="margin:0 0 16px;line-height:1.5${style}">${escapeHtml(s)}</p>`;
  const button = l.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(l.action.url)}" style="display:inline-block;background:#15803d;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(l.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#52525b">Se o botão não funcionar, copie este endereço no navegador:<br>${escapeHtml(l.action.url)}</p>`
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="pt-BR"><head><meta charset="utf-8"><title>${escapeHtml(l.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    `<p style="margin:0 0 24px;font-size:18px;font-weight:bold">${escapeHtml(l.product)}</p>`,
    p(greeting(l.name)),
    ...l.paragraphs.map((s) => p(s)),
    button,
    ...after.map((s) => p(s)),
    `<p style="margin:32px 0 0;padding-top:16px;border-top:1px solid #e4e4e7;font-size:12px;line-height:1.5;color:#71717a">${escapeHtml(l.footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject: oneLine(l.subject), text, html };
}

const accountFooter = (product: string) => `Você recebeu este email porque tem uma conta no ${product}.`;
const noticeFooter = (product: string) =>
  `Você recebeu este aviso porque as notificações por email estão ativadas na sua conta no ${product}. ` +
  'Para não recebê-las, desative “Notificações por email” em Configurações → Notificações.';

export const mailTemplates = {
  passwordReset: (d: { product: string; name: string; url: string; minutes: number }): MailContent =>
    render({
      subject: `Redefinição de senha – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `Recebemos um pedido para redefinir a senha da sua conta no ${d.product}.`,
        `Para criar uma nova senha, use o link abaixo. Ele vale por ${d.minutes} minutos e só pode ser usado uma vez; ao redefinir, todas as sessões abertas da conta são encerradas.`,
      ],
      action: { label: 'Redefinir senha', url: d.url },
      after: ['Se você não pediu a redefinição, ignore este email: sua senha continua a mesma.'],
      footer: accountFooter(d.product),
    }),

  emailConfirmation: (d: { product: string; name: string; url: string; hours: number }): MailContent =>
    render({
      subject: `Confirme seu email – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `Recebemos o seu cadastro no ${d.product}. Confirme que este email é seu pelo link abaixo; ele vale por ${d.hours} horas.`,
        'Depois da confirmação, o administrador libera a sua conta e avisamos você por email.',
      ],
      action: { label: 'Confirmar email', url: d.url },
      after: ['Se você não se cadastrou, ignore este email: nenhuma conta será liberada sem a sua confirmação.'],
      footer: accountFooter(d.product),
    }),

  /**
   * Someone signed up with an address that already has an account: nothing was created, and the
   * sign-up answered as for a new address; its owner hears of it here.
   */
  signupAttempt: (d: {
    product: string;
    name: string;
    username: string;
    loginUrl: string;
    forgotUrl: string;
  }): MailContent =>
    render({
      subject: `Tentativa de cadastro com o seu email – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `Alguém tentou criar uma conta no ${d.product} com este email, que já está cadastrado. Nenhuma conta nova foi criada e a sua continua como estava.`,
        `Se foi você, você já tem uma conta: entre com o seu usuário, ${d.username} (ou com este email), e a senha dessa conta. O cadastro de agora não criou outra, e o usuário e a senha que ele mostrou ou pediu não valem.`,
      ],
      action: { label: `Entrar no ${d.product}`, url: d.loginUrl },
      after: [
        `Esqueceu a senha? Crie uma nova pelo link: ${d.forgotUrl}`,
        'Se não foi você, ignore este email: ninguém entra na sua conta sem a sua senha.',
      ],
      footer: accountFooter(d.product),
    }),

  /** Someone of an account's team invited this address to join it. */
  teamInvitation: (d: {
    product: string;
    name: string;
    inviter: string;
    accountName: string;
    role: string;
    url: string;
    hours: number;
  }): MailContent =>
    render({
      subject: `Convite para a equipe de ${d.accountName} – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `${d.inviter} convidou você para a equipe de ${d.accountName} no ${d.product}, como ${d.role.toLowerCase()}.`,
        `Para aceitar, use o link abaixo e crie o seu usuário e a sua senha. Ele vale por ${d.hours} horas e só pode ser usado uma vez.`,
      ],
      action: { label: 'Aceitar convite', url: d.url },
      after: ['Se você não esperava este convite, ignore este email: nenhum acesso é criado sem você.'],
      footer: `Você recebeu este email porque alguém da equipe de ${d.accountName} o convidou para o ${d.product}.`,
    }),

  /** Someone of the team took this login's second factor away (a lost phone). */
  twoFactorReset: (d: {
    product: string;
    name: string;
    by: string;
    accountName: string;
    loginUrl: string;
  }): MailContent =>
    render({
      subject: `Sua verificação em duas etapas foi redefinida – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `${d.by} redefiniu a verificação em duas etapas do seu acesso à equipe de ${d.accountName} no ${d.product}. O app autenticador e os códigos de recuperação que você tinha deixaram de valer, e as suas sessões abertas foram encerradas.`,
        'Entre com o seu usuário e a sua senha e configure a verificação de novo em Minha conta.',
      ],
      action: { label: `Entrar no ${d.product}`, url: d.loginUrl },
      after: ['Se você não pediu isto, fale agora com o responsável pela conta.'],
      footer: `Você recebeu este email porque faz parte da equipe de ${d.accountName} no ${d.product}.`,
    }),

  accountApproved: (d: { product: string; name: string; username: string; loginUrl: string }): MailContent =>
    render({
      subject: `Sua conta no ${d.product} foi aprovada`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `Sua conta no ${d.product} foi aprovada e já pode ser usada.`,
        `Entre com o seu usuário, ${d.username}, e a sua senha.`,
      ],
      action: { label: `Entrar no ${d.product}`, url: d.loginUrl },
      after: ['Esqueceu a senha? Use “Esqueci minha senha” na página de entrada.'],
      footer: accountFooter(d.product),
    }),

  /** A campaign finished (completed or failed) or paused by the engine: the notification's own words. */
  campaignNotice: (d: { product: string; name: string; title: string; body: string; reportUrl: string }) =>
    render({
      subject: `${d.title} – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [d.body],
      action: { label: 'Ver relatório da campanha', url: d.reportUrl },
      footer: noticeFooter(d.product),
    }),

  whatsappDisconnected: (d: { product: string; name: string; minutes: number; url: string }): MailContent =>
    render({
      subject: `Seu WhatsApp está desconectado – ${d.product}`,
      product: d.product,
      name: d.name,
      paragraphs: [
        `O WhatsApp da sua conta no ${d.product} está desconectado há mais de ${d.minutes} minutos.`,
        'Enquanto ele não voltar, as campanhas ficam paradas e o chatbot não responde aos contatos. Abra o painel e reconecte o número (se for pedido, leia o QR Code de novo).',
      ],
      action: { label: 'Reconectar WhatsApp', url: d.url },
      footer: noticeFooter(d.product),
    }),
};
